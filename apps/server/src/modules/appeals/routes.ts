import { appealsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireAdminWithTwoFactor } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import {
  appealRejection,
  escalateAppeal,
  listEscalatedAppeals,
  overturnAppeal,
  upholdByAdmin,
  upholdByBuyer,
} from "./service.ts";

export const appealRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.appealRejection, async (request) =>
    appealRejection(app.db, {
      workerId: (await currentUser(request)).id,
      submissionId: request.params.id,
      message: request.body.message,
      now: app.clock(),
    }),
  );

  route(app, endpoints.overturnRejection, async (request) =>
    overturnAppeal(app.db, {
      decider: { buyerId: (await currentUser(request)).id },
      submissionId: request.params.id,
      now: app.clock(),
    }),
  );

  route(app, endpoints.upholdRejection, async (request) =>
    upholdByBuyer(app.db, {
      buyerId: (await currentUser(request)).id,
      submissionId: request.params.id,
      answer: request.body.answer,
      now: app.clock(),
    }),
  );

  route(app, endpoints.escalateAppeal, async (request) =>
    escalateAppeal(app.db, {
      workerId: (await currentUser(request)).id,
      submissionId: request.params.id,
      now: app.clock(),
    }),
  );

  route(app, endpoints.listEscalatedAppeals, async (request) => listEscalatedAppeals(app.db, request.query));

  route(
    app,
    endpoints.decideAppeal,
    async (request) => {
      const adminId = (await currentUser(request)).id;
      const { decision, answer } = request.body;
      const submissionId = request.params.submission_id;
      return decision === "overturn"
        ? overturnAppeal(app.db, { decider: { adminId }, submissionId, answer, now: app.clock() })
        : upholdByAdmin(app.db, { adminId, submissionId, answer, now: app.clock() });
    },
    { preHandler: requireAdminWithTwoFactor },
  );
};
