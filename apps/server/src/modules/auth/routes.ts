import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authEndpoints as endpoints, paths, unstorableCharacters } from "@taskmint/shared";
import { trustedOrigins } from "../../env.ts";
import { AppError } from "../../lib/errors.ts";
import { queueMail } from "../../lib/mailer.ts";
import { currentUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { headersForAuth, verificationMail } from "./auth.ts";
import { authForwarder } from "./forward.ts";
import { getUser } from "../users/service.ts";
import { voidPasswordResetLinks } from "./service.ts";

type RateLimit = false | { max: number; timeWindow: string };

/** Reset mails one address may receive an hour, whoever asks: nobody floods a mailbox. */
export const RESET_MAILS_PER_EMAIL_PER_HOUR = 3;

/** Queues the mail with a verification link to the user (rule R28; the job queue sends it, decision 034). */
export async function mailVerificationLink(
  app: FastifyInstance,
  user: { id: string; name: string; email: string },
) {
  await queueMail(app.db, await verificationMail(app.auth, app.env.PUBLIC_URL, user), app.clock());
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
  const accountLimit = (limitName: string, max: number, timeWindow: string, withAddress = false) =>
    app.createRateLimit({
      limitName,
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
    ? accountLimit("sign-in failures from an address", options.rateLimit.max, "15 minutes", true)
    : null;
  const failuresAnywhere = options.rateLimit
    ? accountLimit("sign-in failures", options.rateLimit.max * 10, "1 hour")
    : null;
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

  const mailsToAccount = options.rateLimit
    ? accountLimit("reset mails", RESET_MAILS_PER_EMAIL_PER_HOUR, "1 hour")
    : null;
  const resetLimits = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!mailsToAccount) return;
    const counted = await mailsToAccount(request, { increment: false });
    refuseWhenSpent([counted], reply);
    await mailsToAccount(request);
  };

  const ownOrigins = new Set(trustedOrigins(app.env));
  /**
   * Whether an address the library will send the browser to is a page of this site. The
   * declarations hold only its shape (they cannot know this app's origins), so the routes check
   * this themselves, with the answer the schema's refinement gave.
   */
  const isPageOfThisSite = (value: string) =>
    unstorableCharacters(value) === null &&
    URL.canParse(value, app.env.PUBLIC_URL) &&
    ownOrigins.has(new URL(value, app.env.PUBLIC_URL).origin);
  const notAPageOfThisSite = (field: string) =>
    new AppError("VALIDATION", "Some fields are invalid", { [field]: "Must be a page of this site" });
  const resetPageDefault = `${app.env.PUBLIC_URL}${paths.resetPassword}`;
  const verifyPageDefault = `${app.env.PUBLIC_URL}${paths.verifyEmail}`;

  route(
    app,
    endpoints.signInWithEmail,
    async (request, reply) => {
      const answer = await forward(request, reply, "/sign-in/email");
      if (reply.statusCode === 401) await countFailedSignIn(request);
      return answer;
    },
    { config: byAddress, preHandler: signInLimits },
  );

  route(app, endpoints.signInWithGoogle, (request, reply) => forward(request, reply, "/sign-in/social"), {
    config: byAddress,
  });

  route(
    app,
    endpoints.finishGoogleSignIn,
    (request, reply) => forward(request, reply, `/callback/${request.params.provider}`),
    { config: byAddress },
  );

  route(app, endpoints.signOut, (request, reply) => forward(request, reply, "/sign-out"));

  route(
    app,
    endpoints.changePassword,
    async (request, reply) => {
      const user = await currentUser(request);
      // Other sessions end whatever the client asked: someone who knew the old password may hold one.
      request.body = { ...request.body, revokeOtherSessions: true };
      return forward(request, reply, "/change-password", () => voidPasswordResetLinks(app.db, user.id));
    },
    { config: byAddress },
  );

  // Checked before the mail is counted, as when the schema checked it: a refused address costs
  // the account none of its reset mails.
  const redirectToThisSite = async (request: FastifyRequest) => {
    const { redirectTo } = request.body as { redirectTo?: string };
    if (redirectTo !== undefined && !isPageOfThisSite(redirectTo)) throw notAPageOfThisSite("redirectTo");
  };
  route(
    app,
    endpoints.requestPasswordReset,
    (request) => {
      const headers = headersForAuth(request);
      const { email, redirectTo = resetPageDefault } = request.body;
      // Answered before the account is looked up or the mail sent: the answer and its timing
      // are the same for every address.
      app.background.run("password reset mail", () =>
        app.auth.api.requestPasswordReset({ body: { email, redirectTo }, headers }),
      );
      return { status: true, message: "If this email belongs to an account, a reset link is on its way." };
    },
    { config: byAddress, preHandler: [redirectToThisSite, resetLimits] },
  );

  route(
    app,
    endpoints.openPasswordResetLink,
    (request, reply) => {
      if (!isPageOfThisSite(request.query.callbackURL)) throw notAPageOfThisSite("callbackURL");
      return forward(request, reply, `/reset-password/${request.params.token}`);
    },
    { config: byAddress },
  );

  // Email verification (rule R28). The library's link carries a signed token and returns the
  // browser to the page that tells the user how it went (`?error=` when it did not).
  route(
    app,
    endpoints.openEmailVerificationLink,
    (request, reply) => {
      const { callbackURL } = request.query;
      if (callbackURL !== undefined && !isPageOfThisSite(callbackURL))
        throw notAPageOfThisSite("callbackURL");
      // Made absolute: the library adds `?error=` to it with a URL parser that takes no base.
      request.query.callbackURL = new URL(callbackURL ?? verifyPageDefault, app.env.PUBLIC_URL).href;
      return forward(request, reply, "/verify-email");
    },
    { config: byAddress },
  );

  const verificationMails = app.createRateLimit({
    limitName: "verification mails",
    max: VERIFICATION_MAILS_PER_HOUR,
    timeWindow: "1 hour",
    keyGenerator: async (request) => `verify:${(await currentUser(request)).id}`,
  });
  route(app, endpoints.resendEmailVerification, async (request, reply) => {
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
    await mailVerificationLink(app, user);
    return { status: true, message: `A new link is on its way to ${user.email}.` };
  });
};
