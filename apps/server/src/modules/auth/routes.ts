import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  changePasswordSchema,
  passwordResetRequestSchema,
  paths,
  resetRequestedSchema,
  resetTokenSchema,
  signInRequestSchema,
  socialSignInSchema,
  textSchema,
  twoFactorPasswordSchema,
  unstorableCharacters,
  verifyBackupCodeSchema,
  verifyTotpSchema,
} from "@taskmint/shared";
import { z } from "zod";
import { trustedOrigins } from "../../env.ts";
import { isDatabaseUnavailable } from "../../lib/db-errors.ts";
import { AppError, databaseUnavailable } from "../../lib/errors.ts";
import { currentUser, requireRole, sessionUser } from "../../plugins/auth-guard.ts";
import { codeForStatus } from "../../plugins/errors.ts";
import { ownOrigin } from "../../plugins/origin-check.ts";
import { authRequestErrors, headersForAuth, verificationMail } from "./auth.ts";
import { getUser } from "../users/service.ts";
import { createSecondStepGuard, SECOND_STEP_RULES } from "./second-step.ts";
import { sessionTokenOf } from "./session-reader.ts";
import { voidPasswordResetLinks } from "./service.ts";

type RateLimit = false | { max: number; timeWindow: string };

/** Reset mails one address may receive an hour, whoever asks: nobody floods a mailbox. */
export const RESET_MAILS_PER_EMAIL_PER_HOUR = 3;

/** Mails a verification link to the user (rule R28), after the answer is sent. */
export function mailVerificationLink(
  app: FastifyInstance,
  user: { id: string; name: string; email: string },
) {
  app.background.run("verification mail", async () =>
    app.sendMail(await verificationMail(app.auth, app.env.PUBLIC_URL, user)),
  );
}

/** Verification mails a user may ask for an hour. */
export const VERIFICATION_MAILS_PER_HOUR = 3;

/** The session lives in an http-only cookie; its token has no business in a body scripts can read. */
function withoutSessionToken(text: string): string {
  if (!text.startsWith("{")) return text;
  try {
    const { token: _token, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return text;
  }
}

/** The account a body asks about; the route's schema has already made `email` a string. */
const normalisedEmail = (body: unknown) => ((body as { email?: string }).email ?? "").trim().toLowerCase();

/**
 * The auth library's routes that the app uses, and only those (docs/decisions/009): each is
 * a route of its own with a validated body and its own limits, and the library is handed the
 * route's canonical path, so what was limited is exactly what runs. Every other path under
 * /api/auth answers 404.
 */
export const authRoutes: FastifyPluginAsyncZod<{ rateLimit: RateLimit }> = async (app, options) => {
  /**
   * Forwards the request to the auth library as `path`, and rewrites its errors into the API's
   * format. `afterSuccess` runs before a successful answer is sent, so the client never sees
   * the answer before what it promises is done.
   */
  async function forward(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    afterSuccess?: (cookies: string[]) => Promise<unknown>,
  ) {
    // The query the library reads is rebuilt from the one validated here: two parsers never
    // get to disagree about the same raw text.
    const checked = new URLSearchParams(
      request.method === "GET" ? (request.query as Record<string, string>) : {},
    ).toString();
    const query = checked ? `?${checked}` : "";
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const headers = headersForAuth(request);
    // The body is sent re-serialized from what was validated, so its length is no longer the client's.
    headers.delete("content-length");
    headers.delete("transfer-encoding");
    const errors: unknown[] = [];
    const response = await authRequestErrors.run(errors, () =>
      app.auth.handler(
        // Addressed to where the browser sent it: the library trusts that origin as well (auth.ts).
        new Request(new URL(`/api/auth${path}${query}`, ownOrigin(request) ?? app.env.PUBLIC_URL), {
          method: request.method,
          headers,
          body: hasBody ? JSON.stringify(request.body ?? {}) : undefined,
        }),
      ),
    );
    // Whatever the library answered (a 500, or a sign-out that kept the session), it did not happen.
    const lostDatabase = errors.find(isDatabaseUnavailable);
    if (lostDatabase) {
      request.log.warn({ err: lostDatabase }, "database unavailable");
      throw databaseUnavailable();
    }
    if (response.status >= 500) request.log.error({ err: errors[0] }, "auth request failed");
    reply.status(response.status);
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie" && name !== "content-length") void reply.header(name, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) void reply.header("set-cookie", cookies);

    const text = await response.text();
    if (response.status >= 400) {
      let reason: { code?: string; message?: string } = {};
      try {
        reason = JSON.parse(text) as typeof reason;
      } catch {
        // Not JSON: keep the status and a generic message.
      }
      return reply.type("application/json").send({
        error: {
          code: codeForStatus(response.status),
          message: reason.message ?? "Authentication failed",
          details: { reason: reason.code },
        },
      });
    }
    await afterSuccess?.(cookies);
    return reply.send(withoutSessionToken(text));
  }

  /** A limit keyed by the account a body asks about (and, for some, the asking address), on top of fastify's per-address limit. */
  const accountLimit = (max: number, timeWindow: string, withAddress = false) =>
    app.createRateLimit({
      max,
      timeWindow,
      keyGenerator: (request) => `${normalisedEmail(request.body)}${withAddress ? `|${request.ip}` : ""}`,
    });
  type Counted = Awaited<ReturnType<ReturnType<typeof accountLimit>>>;
  const refuseWhenSpent = (results: Counted[], reply: FastifyReply) => {
    const spent = results.find((result) => !result.isAllowed && result.remaining === 0);
    if (spent && !spent.isAllowed) {
      void reply.header("retry-after", String(Math.max(spent.ttlInSeconds, 1)));
      throw new AppError("RATE_LIMITED", "Too many attempts for this account, please try again later");
    }
  };
  const byAddress: { rateLimit?: { max: number; timeWindow: string } } = options.rateLimit
    ? { rateLimit: options.rateLimit }
    : {};

  // Failed sign-ins only, so nobody locks an owner out by trying their email from one address:
  // each address gets AUTH_RATE_LIMIT failures per account in 15 minutes, and an account takes
  // ten times that from all addresses in an hour (guessing spread over many addresses).
  const failuresFromAddress = options.rateLimit
    ? accountLimit(options.rateLimit.max, "15 minutes", true)
    : null;
  const failuresAnywhere = options.rateLimit ? accountLimit(options.rateLimit.max * 10, "1 hour") : null;
  const signInLimits = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!failuresFromAddress || !failuresAnywhere) return;
    const counted = await Promise.all([
      failuresFromAddress(request, { increment: false }),
      failuresAnywhere(request, { increment: false }),
    ]);
    refuseWhenSpent(counted, reply);
  };
  const countFailedSignIn = async (request: FastifyRequest) => {
    if (failuresFromAddress && failuresAnywhere)
      await Promise.all([failuresFromAddress(request), failuresAnywhere(request)]);
  };

  const mailsToAccount = options.rateLimit ? accountLimit(RESET_MAILS_PER_EMAIL_PER_HOUR, "1 hour") : null;
  const resetLimits = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!mailsToAccount) return;
    const counted = await mailsToAccount(request, { increment: false });
    refuseWhenSpent([counted], reply);
    await mailsToAccount(request);
  };

  const ownOrigins = new Set(trustedOrigins(app.env));
  /** A page of this site, as an address the library will send the browser to. */
  const pageOfThisSite = z
    .string()
    .max(500)
    .refine(
      (value) =>
        unstorableCharacters(value) === null &&
        URL.canParse(value, app.env.PUBLIC_URL) &&
        ownOrigins.has(new URL(value, app.env.PUBLIC_URL).origin),
      "Must be a page of this site",
    );
  const resetPageDefault = `${app.env.PUBLIC_URL}${paths.resetPassword}`;
  const verifyPageDefault = `${app.env.PUBLIC_URL}${paths.verifyEmail}`;

  const tags = ["account"];

  app.post(
    "/api/auth/sign-in/email",
    {
      config: byAddress,
      preHandler: signInLimits,
      schema: {
        tags,
        summary: "Sign in with email and password; sets the session cookie",
        body: signInRequestSchema,
      },
    },
    async (request, reply) => {
      const answer = await forward(request, reply, "/sign-in/email");
      if (reply.statusCode === 401) await countFailedSignIn(request);
      return answer;
    },
  );

  app.post(
    "/api/auth/sign-in/social",
    {
      config: byAddress,
      schema: {
        tags,
        summary: "Start Google sign-in; answers the provider's address to go to",
        body: socialSignInSchema,
      },
    },
    (request, reply) => forward(request, reply, "/sign-in/social"),
  );

  app.get(
    "/api/auth/callback/:provider",
    {
      config: byAddress,
      schema: {
        tags,
        summary: "Where Google sends the browser back after sign-in",
        params: z.object({ provider: z.literal("google") }),
        // Google's answer (code and state, or error); anything else it adds goes through as well.
        querystring: z
          .object({
            code: textSchema("code", { min: 0, max: 4000, trim: false }).optional(),
            state: textSchema("state", { min: 0, max: 4000, trim: false }).optional(),
            error: textSchema("error", { min: 0, max: 4000, trim: false }).optional(),
          })
          .catchall(textSchema("A parameter", { min: 0, max: 4000, trim: false })),
      },
    },
    (request, reply) => forward(request, reply, `/callback/${request.params.provider}`),
  );

  app.post(
    "/api/auth/sign-out",
    { schema: { tags, summary: "End this session", body: z.object({}).strict().optional() } },
    (request, reply) => forward(request, reply, "/sign-out"),
  );

  app.post(
    "/api/auth/change-password",
    {
      config: byAddress,
      schema: {
        tags,
        summary: "Change your password; your other sessions and any reset links still out end",
        body: changePasswordSchema,
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      // Other sessions end whatever the client asked: someone who knew the old password may hold one.
      request.body = { ...request.body, revokeOtherSessions: true };
      return forward(request, reply, "/change-password", () => voidPasswordResetLinks(app.db, user.id));
    },
  );

  app.post(
    "/api/auth/request-password-reset",
    {
      config: byAddress,
      preHandler: resetLimits,
      schema: {
        tags,
        summary: "Mail a password reset link, if the account exists (the answer is the same either way)",
        body: passwordResetRequestSchema.extend({ redirectTo: pageOfThisSite.default(resetPageDefault) }),
        response: { 200: resetRequestedSchema },
      },
    },
    (request) => {
      const headers = headersForAuth(request);
      const { email, redirectTo } = request.body;
      // Answered before the account is looked up or the mail sent: the answer and its timing
      // are the same for every address.
      app.background.run("password reset mail", () =>
        app.auth.api.requestPasswordReset({ body: { email, redirectTo }, headers }),
      );
      return { status: true, message: "If this email belongs to an account, a reset link is on its way." };
    },
  );

  app.get(
    "/api/auth/reset-password/:token",
    {
      config: byAddress,
      schema: {
        tags,
        summary: "The link in a reset mail: sends the browser to the page that sets the new password",
        params: z.object({ token: resetTokenSchema }),
        querystring: z.object({ callbackURL: pageOfThisSite }),
      },
    },
    (request, reply) => forward(request, reply, `/reset-password/${request.params.token}`),
  );

  // Email verification (rule R28). The library's link carries a signed token and returns the
  // browser to the page that tells the user how it went (`?error=` when it did not).
  app.get(
    "/api/auth/verify-email",
    {
      config: byAddress,
      schema: {
        tags,
        summary:
          "The link in a verification mail: confirms the address, then sends the browser to the page that says so",
        querystring: z.object({
          token: z.string().regex(/^[A-Za-z0-9_.-]{1,2000}$/, "Invalid or expired link"),
          // Made absolute: the library adds `?error=` to it with a URL parser that takes no base.
          callbackURL: pageOfThisSite
            .default(verifyPageDefault)
            .transform((page) => new URL(page, app.env.PUBLIC_URL).href),
        }),
      },
    },
    (request, reply) => forward(request, reply, "/verify-email"),
  );

  const verificationMails = app.createRateLimit({
    max: VERIFICATION_MAILS_PER_HOUR,
    timeWindow: "1 hour",
    keyGenerator: async (request) => `verify:${(await currentUser(request)).id}`,
  });
  app.post(
    "/api/me/verify-email/resend",
    {
      preHandler: requireRole(),
      schema: {
        tags,
        summary: "Mail a new verification link to the signed-in user's address",
        response: { 200: resetRequestedSchema },
      },
    },
    async (request, reply) => {
      const { id } = await currentUser(request);
      const user = await getUser(app.db, id);
      if (user.email_verified) throw new AppError("CONFLICT", "Your email address is already confirmed");
      const counted = await verificationMails(request);
      if (!counted.isAllowed && counted.isExceeded) {
        void reply.header("retry-after", String(Math.max(counted.ttlInSeconds, 1)));
        throw new AppError(
          "RATE_LIMITED",
          "We sent several links in the last hour: please use the newest one or try again later",
        );
      }
      mailVerificationLink(app, user);
      return { status: true, message: `A new link is on its way to ${user.email}.` };
    },
  );

  // Two-factor sign-in (decision 018). Turning it on answers the authenticator's address and
  // the backup codes; it is on once a first code confirms it. Signing in with it on answers
  // `twoFactorRedirect` and a short-lived challenge cookie instead of a session; the session
  // comes from one of the two verify routes. The library caps each challenge at 5 codes and
  // locks the account's second step for 15 minutes after 10 wrong codes in a row; each
  // address also has its own limit here.
  const twoFactorTags = ["account", "two-factor"];

  app.post(
    "/api/auth/two-factor/enable",
    {
      config: byAddress,
      preHandler: requireRole(),
      schema: {
        tags: twoFactorTags,
        summary:
          "Start turning on two-factor sign-in (password again): answers the otpauth address and 10 backup codes",
        body: twoFactorPasswordSchema,
      },
    },
    (request, reply) => forward(request, reply, "/two-factor/enable"),
  );

  const { secret: authSecret, createAuthCookie } = await app.auth.$context;
  const guard = createSecondStepGuard(app.db, authSecret);
  const challengeCookie = createAuthCookie("two_factor").name;

  /**
   * A code of the second step, checked here before the library judges it (rule R30, decision
   * 026). Three cases: a sign-in's challenge, a signed-in user confirming a code (which makes
   * this session one that passed the second factor), and the first code that turns two-factor
   * on (which ends the account's other sessions). Every code of an account with two-factor on
   * is counted before it is judged; a TOTP code's time step is taken once.
   */
  async function verifySecondStep(
    request: FastifyRequest<{ Body: { code: string } }>,
    reply: FastifyReply,
    kind: "totp" | "backup-code",
  ) {
    const signedIn = await sessionUser(request);
    // The library dates challenges and codes by the real time; the lock goes by the app's clock.
    const userId =
      signedIn?.id ?? (await guard.challengeUser(headersForAuth(request), challengeCookie, new Date()));
    const path = `/two-factor/verify-${kind}`;
    // No challenge the library would take: it answers that itself.
    if (!userId) return forward(request, reply, path);
    const turningOn = kind === "totp" && signedIn !== null && !signedIn.twoFactorEnabled;
    if (!turningOn) {
      const lockedFor = await guard.claimCodeAttempt(userId, app.clock());
      if (lockedFor !== null) {
        void reply.header("retry-after", String(lockedFor));
        throw new AppError(
          "RATE_LIMITED",
          `Too many wrong codes: two-factor sign-in for this account is locked for ${SECOND_STEP_RULES.lockMinutes} minutes`,
        );
      }
    }
    if (kind === "totp") await guard.claimTotpStep(userId, request.body.code, Date.now());
    return forward(request, reply, path, async (cookies) => {
      if (turningOn) {
        // The library answers the session it replaced; the new one is in the cookie it set.
        const cookie = cookies.map((setCookie) => setCookie.split(";")[0]).join("; ");
        const kept = sessionTokenOf(new Headers({ cookie }), authSecret);
        if (kept) await guard.endOtherSessions(userId, kept);
        return;
      }
      await guard.codeAccepted(userId);
      if (signedIn) await guard.markSessionVerified(signedIn.sessionId);
    });
  }

  app.post(
    "/api/auth/two-factor/verify-totp",
    {
      config: byAddress,
      schema: {
        tags: twoFactorTags,
        summary:
          "A code from the authenticator app: a sign-in's second step (sets the session cookie), the code that finishes turning two-factor on (other sessions end), or, signed in, a code that confirms this session for admin actions",
        description:
          "Each code is accepted once: a code whose time step was accepted before answers 401. Ten wrong codes in a row (counted before they are judged) lock the account's second step for 15 minutes (429 with Retry-After).",
        body: verifyTotpSchema,
      },
    },
    (request, reply) => verifySecondStep(request, reply, "totp"),
  );

  app.post(
    "/api/auth/two-factor/verify-backup-code",
    {
      config: byAddress,
      schema: {
        tags: twoFactorTags,
        summary:
          "A sign-in's second step with a backup code, each usable once (sets the session cookie); signed in, it confirms this session for admin actions",
        body: verifyBackupCodeSchema,
      },
    },
    (request, reply) => verifySecondStep(request, reply, "backup-code"),
  );

  app.post(
    "/api/auth/two-factor/disable",
    {
      config: byAddress,
      preHandler: requireRole(),
      schema: {
        tags: twoFactorTags,
        summary: "Turn off two-factor sign-in (password again)",
        body: twoFactorPasswordSchema,
      },
    },
    (request, reply) => forward(request, reply, "/two-factor/disable"),
  );

  app.post(
    "/api/auth/two-factor/generate-backup-codes",
    {
      config: byAddress,
      preHandler: requireRole(),
      schema: {
        tags: twoFactorTags,
        summary: "Make 10 new backup codes (password again); the old ones stop working",
        body: twoFactorPasswordSchema,
      },
    },
    (request, reply) => forward(request, reply, "/two-factor/generate-backup-codes"),
  );
};
