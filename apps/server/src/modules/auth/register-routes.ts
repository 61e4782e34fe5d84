import { authEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { readMultipart, singleFile } from "../../lib/multipart.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { fieldMessages } from "../../plugins/errors.ts";
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
      const form = await readMultipart(request);
      const parsed = endpoints.register.form.fields.safeParse(form.fields);
      const photo = singleFile(form, "photo");
      if (!parsed.success || !photo) {
        const details = parsed.success ? {} : fieldMessages(parsed.error.issues);
        if (!photo) details.photo = "Photo is required";
        throw new AppError("VALIDATION", Object.values(details)[0] ?? "Some fields are invalid", details);
      }
      const user = await registerUser(app.db, parsed.data, photo);
      const signIn = await app.auth.api.signInEmail({
        body: { email: parsed.data.email, password: parsed.data.password },
        headers: headersForAuth(request),
        returnHeaders: true,
      });
      void reply.header("set-cookie", signIn.headers.getSetCookie());
      mailVerificationLink(app, user);
      return reply.status(201).send({ user });
    },
    { config: options.rateLimit ? { rateLimit: options.rateLimit } : {} },
  );
};
