import { activeSessionSchema, idParamsSchema } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { endSession, listSessions } from "./service.ts";

export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/me/sessions",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["account"],
        summary: "Your signed-in sessions, most recently used first (at most 50); `current` is this one",
        response: { 200: z.array(activeSessionSchema) },
      },
    },
    async (request) =>
      // Real time, as the session reader judges expiry by it (auth-guard.ts).
      listSessions(app.db, await currentUser(request), new Date()),
  );

  app.delete(
    "/api/me/sessions/:id",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["account"],
        summary: "Sign out one of your sessions (this one too); its live notifications end",
        params: idParamsSchema("Unknown session"),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await endSession(app.db, (await currentUser(request)).id, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
