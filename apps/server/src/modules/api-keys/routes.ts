import { apiKeysEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "./service.ts";

// Key management takes a signed-in session: none of these endpoints declares `keys` (decision 033).
export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.createApiKey, async (request) =>
    createApiKey(app.db, {
      buyerId: (await currentUser(request)).id,
      name: request.body.name,
      now: app.clock(),
    }),
  );

  route(app, endpoints.listApiKeys, async (request) => listApiKeys(app.db, (await currentUser(request)).id));

  route(app, endpoints.revokeApiKey, async (request, reply) => {
    await revokeApiKey(app.db, {
      buyerId: (await currentUser(request)).id,
      keyId: request.params.id,
      now: app.clock(),
    });
    return reply.status(204).send(null);
  });
};
