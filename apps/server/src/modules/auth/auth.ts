import { randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, getOAuthState } from "better-auth/api";
import { PASSWORD_RULE_MESSAGE, passwordSchema } from "@taskmint/shared";
import type { SendMail } from "../../lib/mailer.ts";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { accounts, sessions, users, verifications } from "../../db/schema/index.ts";
import type { Env } from "../../env.ts";
import { grantSignupBonus } from "../users/service.ts";
import { adoptPhotoSetAside, googleSignIn, setPhotoAside } from "./google.ts";

export interface AuthOptions {
  env: Env;
  db: Database;
  secret: string;
  sendMail: SendMail;
}

/** The paths that set a password; the spec's password rule applies to each. */
const PASSWORD_SETTING_PATHS = new Set(["/reset-password", "/change-password"]);

/** The vite dev server, which proxies /api to us during `npm run dev`. */
const DEV_WEB_ORIGIN = "http://localhost:5173";

export function createAuth({ env, db, secret, sendMail }: AuthOptions) {
  const google = googleSignIn(env);
  return betterAuth({
    appName: "TaskMint",
    baseURL: env.PUBLIC_URL,
    basePath: "/api/auth",
    secret,
    trustedOrigins: env.NODE_ENV === "production" ? [env.PUBLIC_URL] : [env.PUBLIC_URL, DEV_WEB_ORIGIN],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
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
        await sendMail({
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
    },
    socialProviders: google.socialProviders,
    plugins: google.plugins,
    // A Google sign-in that fails without a page of its own to return to lands on /login, which shows the error.
    onAPIError: { errorURL: `${env.PUBLIC_URL}/login` },
    user: {
      additionalFields: {
        // Product rule R1: a first-time Google user is a buyer.
        role: { type: "string", required: false, defaultValue: "buyer", input: false },
      },
    },
    // Sign-in is rate-limited by fastify on the client's real address (see app.ts).
    rateLimit: { enabled: false },
    advanced: { database: { generateId: () => randomUUID() } },
    databaseHooks: {
      session: {
        create: {
          // Rule R12: a deleted account cannot sign in.
          before: async (session) => {
            const [owner] = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, session.userId));
            if (owner?.deletedAt) throw new APIError("FORBIDDEN", { message: "This account has been deleted" });
          },
        },
      },
      user: {
        create: {
          // Users made by the auth library itself come from Google sign-up (rule R1): a buyer,
          // unless /register passed the role chosen there through the OAuth state.
          before: async (user) => {
            const state = await getOAuthState().catch(() => null);
            return { data: { ...user, image: setPhotoAside(user), role: state?.role === "worker" ? "worker" : "buyer" } };
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
