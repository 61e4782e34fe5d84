import { sessionsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "../../plugins/endpoint-route.ts";
import { endSession, listSessions } from "./service.ts";

export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.listMySessions, (request) =>
    // Real time, as the session reader judges expiry by it (auth-guard.ts).
    listSessions(app.db, request.sessionUser, new Date()),
  );

  route(app, endpoints.endMySession, async (request, reply) => {
    await endSession(app.db, request.sessionUser.id, request.params.id);
    return reply.status(204).send(null);
  });
};
