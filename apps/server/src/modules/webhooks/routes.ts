import { webhooksEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "../../plugins/endpoint-route.ts";
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  testWebhook,
  updateWebhook,
} from "./service.ts";

// Decision 035: reading and resending may use an API key; adding, changing and removing an
// endpoint take a signed-in session (the declarations' `keys`).
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const production = app.env.NODE_ENV === "production";

  route(app, endpoints.createWebhook, (request) =>
    createWebhook(app.db, { ...request.body, buyerId: request.sessionUser.id, now: request.now, production }),
  );
  route(app, endpoints.listWebhooks, (request) => listWebhooks(app.db, request.sessionUser.id));
  route(app, endpoints.updateWebhook, (request) =>
    updateWebhook(app.db, {
      buyerId: request.sessionUser.id,
      id: request.params.id,
      change: request.body,
      now: request.now,
      production,
    }),
  );
  route(app, endpoints.deleteWebhook, async (request, reply) => {
    await deleteWebhook(app.db, { buyerId: request.sessionUser.id, id: request.params.id });
    return reply.status(204).send(null);
  });
  route(app, endpoints.testWebhook, (request) =>
    testWebhook(app.db, { buyerId: request.sessionUser.id, id: request.params.id, now: request.now }),
  );
  route(app, endpoints.listWebhookDeliveries, (request) =>
    listDeliveries(app.db, {
      buyerId: request.sessionUser.id,
      webhookId: request.params.id,
      cursor: request.query.cursor,
      limit: request.query.limit,
    }),
  );
  route(app, endpoints.getWebhookDelivery, (request) =>
    getDelivery(app.db, { buyerId: request.sessionUser.id, id: request.params.id }),
  );
  route(app, endpoints.resendWebhookDelivery, (request) =>
    resendDelivery(app.db, { buyerId: request.sessionUser.id, id: request.params.id, now: request.now }),
  );
};
