import { pushEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "../../plugins/endpoint-route.ts";
import { quietHoursOf, setQuietHours, subscribeDevice, unsubscribeDevice, type Vapid } from "./service.ts";

/** Web Push (issue 36, decision 038): the server's public key, the user's devices and quiet hours. */
export const pushRoutes: FastifyPluginAsyncZod<{ vapid: Vapid }> = async (app, { vapid }) => {
  const production = app.env.NODE_ENV === "production";

  route(app, endpoints.getPushPublicKey, () => ({ key: vapid.publicKey }));
  route(app, endpoints.createPushSubscription, (request) =>
    subscribeDevice(app.db, {
      userId: request.sessionUser.id,
      sessionId: request.sessionUser.sessionId,
      subscription: request.body,
      now: request.now,
      production,
    }),
  );
  route(app, endpoints.deletePushSubscription, async (request, reply) => {
    await unsubscribeDevice(app.db, { userId: request.sessionUser.id, endpoint: request.body.endpoint });
    return reply.status(204).send(null);
  });
  route(app, endpoints.getQuietHours, (request) => quietHoursOf(app.db, request.sessionUser.id));
  route(app, endpoints.updateQuietHours, (request) =>
    setQuietHours(app.db, request.sessionUser.id, request.body),
  );
};
