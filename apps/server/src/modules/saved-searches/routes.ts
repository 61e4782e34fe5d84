import { savedSearchesEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "../../plugins/endpoint-route.ts";
import {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  markSavedSearchSeen,
  updateSavedSearch,
} from "./service.ts";

export const savedSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.createSavedSearch, (request) =>
    createSavedSearch(app.db, { workerId: request.sessionUser.id, search: request.body, now: request.now }),
  );

  route(app, endpoints.listSavedSearches, async (request) => ({
    items: await listSavedSearches(app.db, { workerId: request.sessionUser.id, now: request.now }),
  }));

  route(app, endpoints.updateSavedSearch, (request) =>
    updateSavedSearch(app.db, {
      workerId: request.sessionUser.id,
      id: request.params.id,
      update: request.body,
      now: request.now,
    }),
  );

  route(app, endpoints.markSavedSearchSeen, (request) =>
    markSavedSearchSeen(app.db, {
      workerId: request.sessionUser.id,
      id: request.params.id,
      now: request.now,
    }),
  );

  route(app, endpoints.deleteSavedSearch, async (request, reply) => {
    await deleteSavedSearch(app.db, { workerId: request.sessionUser.id, id: request.params.id });
    return reply.status(204).send(null);
  });
};
