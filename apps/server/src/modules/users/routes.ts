import { usersEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { readForm } from "../../lib/multipart.ts";
import { newestNotificationId } from "../notifications/service.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { getUser, updateProfile } from "./service.ts";

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.getMe, async (request) => {
    const { id, twoFactorVerified } = request.sessionUser;
    const [user, latestNotificationId] = await Promise.all([
      getUser(app.db, id),
      newestNotificationId(app.db, id),
    ]);
    return {
      user,
      session: { two_factor_verified: twoFactorVerified },
      latest_notification_id: latestNotificationId,
    };
  });

  route(app, endpoints.updateMe, async (request) => {
    const { id } = request.sessionUser;
    const { fields, files } = await readForm(request, endpoints.updateMe.form);
    return { user: await updateProfile(app.db, id, { name: fields.name, photo: files.photo }) };
  });
};
