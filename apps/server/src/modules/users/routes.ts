import { usersEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { readForm } from "../../lib/multipart.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { getUser, updateProfile } from "./service.ts";

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.getMe, async (request) => {
    const { id, twoFactorVerified } = request.sessionUser;
    return { user: await getUser(app.db, id), session: { two_factor_verified: twoFactorVerified } };
  });

  route(app, endpoints.updateMe, async (request) => {
    const { id } = request.sessionUser;
    const { fields, files } = await readForm(request, endpoints.updateMe.form);
    return { user: await updateProfile(app.db, id, { name: fields.name, photo: files.photo }) };
  });
};
