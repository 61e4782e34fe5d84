import { meAnswerSchema, nameSchema, userAnswerSchema } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { readMultipart, singleFile } from "../../lib/multipart.ts";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { getUser, updateProfile } from "./service.ts";

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
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
