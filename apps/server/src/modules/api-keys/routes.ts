import { apiKeysEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "../../plugins/endpoint-route.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "./service.ts";

// Key management takes a signed-in session: none of these endpoints declares `keys` (decision 033).
export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.createApiKey, (request) =>
    createApiKey(app.db, {
      buyerId: request.sessionUser.id,
      name: request.body.name,
      now: request.now,
    }),
  );

  route(app, endpoints.listApiKeys, (request) => listApiKeys(app.db, request.sessionUser.id));

  route(app, endpoints.revokeApiKey, async (request, reply) => {
    await revokeApiKey(app.db, {
      buyerId: request.sessionUser.id,
      keyId: request.params.id,
      now: request.now,
    });
    return reply.status(204).send(null);
  });
};
