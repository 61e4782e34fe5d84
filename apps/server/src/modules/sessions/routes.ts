import { sessionsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { endSession, listSessions } from "./service.ts";

export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.listMySessions, async (request) =>
    // Real time, as the session reader judges expiry by it (auth-guard.ts).
    listSessions(app.db, await currentUser(request), new Date()),
  );

  route(app, endpoints.endMySession, async (request, reply) => {
    await endSession(app.db, (await currentUser(request)).id, request.params.id);
    return reply.status(204).send(null);
  });
};
