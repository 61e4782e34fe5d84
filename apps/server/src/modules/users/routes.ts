import { meAnswerSchema, nameSchema, registerFieldsSchema, userAnswerSchema } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { readMultipart, singleFile } from "../../lib/multipart.ts";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { fieldMessages } from "../../plugins/errors.ts";
import { getUser, registerUser, updateProfile } from "./service.ts";
import { headersForAuth } from "../auth/auth.ts";
import { mailVerificationLink } from "../auth/routes.ts";

export const userRoutes: FastifyPluginAsyncZod<{
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

  app.get(
    "/api/me",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["account"],
        summary:
          "The signed-in user, and whether this session passed a second factor (admin actions need it)",
        response: { 200: meAnswerSchema },
      },
    },
    async (request) => {
      const { id, twoFactorVerified } = await currentUser(request);
      return { user: await getUser(app.db, id), session: { two_factor_verified: twoFactorVerified } };
    },
  );

  app.patch(
    "/api/me",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["account"],
        summary: "Change your name or photo",
        description: "multipart/form-data with the optional field name and the optional file photo.",
        consumes: ["multipart/form-data"],
        response: { 200: userAnswerSchema },
      },
    },
    async (request) => {
      const { id } = await currentUser(request);
      const form = await readMultipart(request);
      const name = form.fields.name === undefined ? undefined : nameSchema.safeParse(form.fields.name);
      if (name && !name.success) {
        throw new AppError("VALIDATION", name.error.issues[0]?.message ?? "Invalid name", {
          name: name.error.issues[0]?.message,
        });
      }
      return {
        user: await updateProfile(app.db, id, { name: name?.data, photo: singleFile(form, "photo") }),
      };
    },
  );
};
