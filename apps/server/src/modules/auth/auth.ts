import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { FastifyRequest } from "fastify";
import { betterAuth, getCurrentAdapter } from "better-auth";
import { fromNodeHeaders } from "better-auth/node";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, createEmailVerificationToken, getOAuthState } from "better-auth/api";
import { twoFactor } from "better-auth/plugins/two-factor";
import { PASSWORD_RULE_MESSAGE, passwordSchema, paths } from "@taskmint/shared";
import type { Mail } from "../../lib/mailer.ts";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { accounts, sessions, twoFactors, users, verifications } from "../../db/schema/index.ts";
import { trustedOrigins, type Env } from "../../env.ts";
import { grantSignupBonus } from "../users/service.ts";
import { adoptPhotoSetAside, googleSignIn, setPhotoAside } from "./google.ts";
import { challengeGoogleSignIn, passedSecondFactor } from "./second-step.ts";

export interface AuthOptions {
  env: Env;
  db: Database;
  secret: string;
  /** Queues a mail on the job queue (decision 034): an SMTP outage or a restart loses none. */
  queueMail: (mail: Mail) => Promise<void>;
  log: FastifyBaseLogger;
}

/**
 * The errors the auth library logged while answering the current request. It answers some
 * failed queries with its own 500, and sign-out even with success, so the route that forwards
 * to it reads them here to tell a lost database (503) from a fault.
 */
export const authRequestErrors = new AsyncLocalStorage<unknown[]>();

/**
 * A request's headers as the auth library is handed them. The library reads the client's
 * address from x-forwarded-for, which a client can write; it gets the address fastify
 * determined instead, so a session records the real one (the sessions list shows it).
 */
export function headersForAuth(request: FastifyRequest): Headers {
  const headers = fromNodeHeaders(request.headers);
  headers.set("x-forwarded-for", request.ip);
  return headers;
}

/** How long the link of a verification mail works. */
export const EMAIL_VERIFICATION_HOURS = 24;

/**
 * The verification mail (rule R28). Its link is the auth library's: a token signed with the
 * auth secret that `GET /api/auth/verify-email` checks, bound to the user's id.
 */
export async function verificationMail(
  auth: { $context: Promise<{ secret: string }> },
  publicUrl: string,
  user: { id: string; name: string; email: string },
) {
  const { secret } = await auth.$context;
  const token = await createEmailVerificationToken(
    secret,
    user.email,
    undefined,
    EMAIL_VERIFICATION_HOURS * 60 * 60,
    {
      userId: user.id,
    },
  );
  const url = `${publicUrl}/api/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(`${publicUrl}${paths.verifyEmail}`)}`;
  return {
    to: user.email,
    subject: "Confirm your TaskMint email address",
    text: `Hello ${user.name},\n\nPlease confirm that this is your email address by opening this link within ${EMAIL_VERIFICATION_HOURS} hours:\n\n${url}\n\nWorkers confirm their address before their first withdrawal. If you did not create a TaskMint account, ignore this mail.\n`,
  };
}

/** The paths that set a password; the spec's password rule applies to each. */
const PASSWORD_SETTING_PATHS = new Set(["/reset-password", "/change-password"]);

export function createAuth({ env, db, secret, queueMail, log }: AuthOptions) {
  const google = googleSignIn(env);
  return betterAuth({
    appName: "TaskMint",
    baseURL: env.PUBLIC_URL,
    basePath: "/api/auth",
    secret,
    // The configured origins, and the one a request was sent to (routes.ts addresses the request
    // it hands over there), which the app's own check has compared with the request's Origin.
    trustedOrigins: (request) => [...trustedOrigins(env), ...(request ? [new URL(request.url).origin] : [])],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        twoFactor: twoFactors,
      },
      transaction: true,
    }),
    // Accounts with a password are made only by POST /api/register, which also checks
    // the photo and grants the starting coins in the same transaction.
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 6,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await queueMail({
          to: user.email,
          subject: "Reset your TaskMint password",
          text: `Hello ${user.name},\n\nSomeone (we hope you) asked to reset your TaskMint password. Open this link within an hour to choose a new one:\n\n${url}\n\nThe link works once. If you did not ask for this, ignore this mail: your password stays as it is.\n`,
        });
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (!PASSWORD_SETTING_PATHS.has(ctx.path)) return;
        const body = ctx.body as { newPassword?: unknown } | undefined;
        if (!passwordSchema.safeParse(body?.newPassword).success) {
          throw new APIError("BAD_REQUEST", { message: PASSWORD_RULE_MESSAGE, code: "PASSWORD_RULE" });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path.startsWith("/callback/")) await challengeGoogleSignIn(ctx, env.PUBLIC_URL);
      }),
    },
    socialProviders: google.socialProviders,
    plugins: [
      ...google.plugins,
      // Decision 018: TOTP with backup codes. The codes of a sign-in's second step are
      // rate-limited by fastify (routes.ts), as the library's own limiter is off.
      // The lock after wrong codes is second-step.ts's, counted before each code is judged: the
      // library's reads the lock once per request, so parallel guesses all got judged.
      twoFactor({
        issuer: "TaskMint",
        backupCodeOptions: { amount: 10, length: 10 },
        accountLockout: { enabled: false },
      }),
    ],
    session: {
      additionalFields: {
        twoFactorVerified: { type: "boolean", required: false, defaultValue: false, input: false },
      },
    },
    user: {
      additionalFields: {
        // Product rule R1: a first-time Google user is a buyer.
        role: { type: "string", required: false, defaultValue: "buyer", input: false },
        // Rule R12, read by the session hook below; never set through the library.
        deletedAt: { type: "date", required: false, input: false, returned: false },
      },
    },
    logger: {
      level: "warn",
      log: (level, message, ...args: unknown[]) => {
        const error = args.find((arg) => arg instanceof Error);
        if (level === "error" && error) authRequestErrors.getStore()?.push(error);
        log[level]({ err: error }, `auth: ${message}`);
      },
    },
    // A failure that is not the library's own answer reaches our error handler, which maps it;
    // a Google sign-in that fails without a page of its own to return to lands on /login, which shows the error.
    onAPIError: { throw: true, errorURL: `${env.PUBLIC_URL}/login` },
    // Sign-in is rate-limited by fastify on the client's real address (see app.ts).
    rateLimit: { enabled: false },
    advanced: { database: { generateId: () => randomUUID() } },
    databaseHooks: {
      session: {
        create: {
          // Rule R12: a deleted account cannot sign in. Rule R30: the session records whether it
          // began with a second factor.
          before: async (session, context) => {
            // Through the library's adapter: a session made inside its transaction (a password
            // change) must read on that transaction, or PGlite's one connection waits on itself.
            const owner = context
              ? await (
                  await getCurrentAdapter(context.context.adapter)
                ).findOne<{ deletedAt: Date | null }>({
                  model: "user",
                  where: [{ field: "id", value: session.userId }],
                })
              : (
                  await db
                    .select({ deletedAt: users.deletedAt })
                    .from(users)
                    .where(eq(users.id, session.userId))
                )[0];
            if (owner?.deletedAt)
              throw new APIError("FORBIDDEN", { message: "This account has been deleted" });
            return { data: { ...session, twoFactorVerified: passedSecondFactor(context) } };
          },
        },
      },
      user: {
        create: {
          // Users made by the auth library itself come from Google sign-up (rule R1): a buyer,
          // unless /register passed the role chosen there through the OAuth state.
          before: async (user) => {
            const state = await getOAuthState().catch(() => null);
            return {
              data: {
                ...user,
                image: setPhotoAside(user),
                role: state?.role === "worker" ? "worker" : "buyer",
              },
            };
          },
          after: async (user, context) => {
            const role = user.role === "worker" ? "worker" : "buyer";
            await db.transaction((tx) => grantSignupBonus(tx, user.id, role));
            await adoptPhotoSetAside(db, user, (message) => context?.context.logger.warn(message));
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
