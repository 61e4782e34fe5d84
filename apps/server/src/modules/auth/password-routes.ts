import { authEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { getUser } from "../users/service.ts";
import { voidPasswordResetLinks } from "./service.ts";
import { headersForAuth } from "./auth.ts";

const invalidLink = () =>
  new AppError("VALIDATION", "This reset link is invalid, already used or expired. Ask for a new one.", {
    token: "Invalid or expired link",
  });

/**
 * Finishes a password reset and signs the user in. The link (sent by better-auth's
 * /api/auth/request-password-reset) works once and expires after an hour.
 */
export const passwordRoutes: FastifyPluginAsyncZod<{
  rateLimit: false | { max: number; timeWindow: string };
}> = async (app, options) => {
  route(
    app,
    endpoints.resetPassword,
    async (request, reply) => {
      const { token, password } = request.body;
      const context = await app.auth.$context;
      const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
      if (!verification || verification.expiresAt < app.clock()) throw invalidLink();
      const userId = verification.value;
      const headers = headersForAuth(request);
      try {
        await app.auth.api.resetPassword({ body: { newPassword: password, token }, headers });
      } catch {
        throw invalidLink();
      }
      // The library ended every session of the user; links mailed before this one die too.
      await voidPasswordResetLinks(app.db, userId);
      const [account] = await app.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
      if (!account) throw invalidLink();
      const signIn = await app.auth.api.signInEmail({
        body: { email: account.email, password },
        headers,
        returnHeaders: true,
      });
      void reply.header("set-cookie", signIn.headers.getSetCookie());
      return { user: await getUser(app.db, userId) };
    },
    { config: options.rateLimit ? { rateLimit: options.rateLimit } : {} },
  );
};
