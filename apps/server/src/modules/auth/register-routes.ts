import { authEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { readForm } from "../../lib/multipart.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { registerUser } from "../users/service.ts";
import { headersForAuth } from "./auth.ts";
import { mailVerificationLink } from "./routes.ts";

/** Signing up: the account is made, its owner signed in and sent the verification mail. */
export const registerRoutes: FastifyPluginAsyncZod<{
  rateLimit: false | { max: number; timeWindow: string };
}> = async (app, options) => {
  route(
    app,
    endpoints.register,
    async (request, reply) => {
      const { fields, files } = await readForm(request, endpoints.register.form);
      const user = await registerUser(app.db, fields, files.photo);
      const signIn = await app.auth.api.signInEmail({
        body: { email: fields.email, password: fields.password },
        headers: headersForAuth(request),
        returnHeaders: true,
      });
      void reply.header("set-cookie", signIn.headers.getSetCookie());
      await mailVerificationLink(app, user);
      return { user };
    },
    { config: options.rateLimit ? { rateLimit: options.rateLimit } : {} },
  );
};
