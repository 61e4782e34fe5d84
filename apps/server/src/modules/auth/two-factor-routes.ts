import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authEndpoints as endpoints } from "@taskmint/shared";
import { AppError } from "../../lib/errors.ts";
import { sessionUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { headersForAuth } from "./auth.ts";
import { authForwarder } from "./forward.ts";
import { createSecondStepGuard, SECOND_STEP_RULES } from "./second-step.ts";
import { sessionTokenOf } from "./session-reader.ts";

/**
 * The two-factor routes (decision 018), each handed to the auth library as authRoutes are,
 * after the app's own checks of a code (rule R30, decision 026).
 */
export const twoFactorRoutes: FastifyPluginAsyncZod<{
  rateLimit: false | { max: number; timeWindow: string };
}> = async (app, options) => {
  const forward = authForwarder(app);
  const byAddress: { rateLimit?: { max: number; timeWindow: string } } = options.rateLimit
    ? { rateLimit: options.rateLimit }
    : {};

  // Two-factor sign-in (decision 018). Turning it on answers the authenticator's address and
  // the backup codes; it is on once a first code confirms it. Signing in with it on answers
  // `twoFactorRedirect` and a short-lived challenge cookie instead of a session; the session
  // comes from one of the two verify routes. The library caps each challenge at 5 codes and
  // locks the account's second step for 15 minutes after 10 wrong codes in a row; each
  // address also has its own limit here.
  // Turning it on or off and new backup codes: the library's own routes, behind the address's limit.
  for (const [endpoint, libraryPath] of [
    [endpoints.enableTwoFactor, "/two-factor/enable"],
    [endpoints.disableTwoFactor, "/two-factor/disable"],
    [endpoints.generateBackupCodes, "/two-factor/generate-backup-codes"],
  ] as const)
    route(app, endpoint, (request, reply) => forward(request, reply, libraryPath), { config: byAddress });

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

  for (const [endpoint, kind] of [
    [endpoints.verifyTwoFactorCode, "totp"],
    [endpoints.verifyBackupCode, "backup-code"],
  ] as const)
    route(app, endpoint, (request, reply) => verifySecondStep(request, reply, kind), { config: byAddress });
};
