import { registerFieldsSchema, userAnswerSchema } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { readMultipart, singleFile } from "../../lib/multipart.ts";
import { fieldMessages } from "../../plugins/errors.ts";
import { registerUser } from "../users/service.ts";
import { headersForAuth } from "./auth.ts";
import { mailVerificationLink } from "./routes.ts";

/** Signing up: the account is made, its owner signed in and sent the verification mail. */
export const registerRoutes: FastifyPluginAsyncZod<{
  rateLimit: false | { max: number; timeWindow: string };
}> = async (app, options) => {
  app.post(
    "/api/register",
    {
      config: options.rateLimit ? { rateLimit: options.rateLimit } : {},
      schema: {
        tags: ["account"],
        summary: "Create a worker or buyer account and sign in",
        description:
          "multipart/form-data with the fields name, role (worker|buyer), email, password and the file photo (an image, at most 5 MB). Grants the starting coins (worker 10, buyer 50) and sets the session cookie.",
        consumes: ["multipart/form-data"],
        response: { 201: userAnswerSchema },
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request);
      const parsed = registerFieldsSchema.safeParse(form.fields);
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
  );
};
