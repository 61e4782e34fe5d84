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
  unstorableCharacters,
} from "@taskmint/shared";
import { z } from "zod";
import { trustedOrigins } from "../../env.ts";
import { AppError } from "../../lib/errors.ts";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { headersForAuth, verificationMail } from "./auth.ts";
import { authForwarder } from "./forward.ts";
import { getUser } from "../users/service.ts";
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

/** The account a body asks about; the route's schema has already made `email` a string. */
const normalisedEmail = (body: unknown) => ((body as { email?: string }).email ?? "").trim().toLowerCase();

/**
 * The auth library's routes that the app uses, and only those (docs/decisions/009): each is
 * a route of its own with a validated body and its own limits, and the library is handed the
 * route's canonical path, so what was limited is exactly what runs. Every other path under
 * /api/auth answers 404.
 */
export const authRoutes: FastifyPluginAsyncZod<{ rateLimit: RateLimit }> = async (app, options) => {
  const forward = authForwarder(app);

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
};
