import { appealsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireAdminWithTwoFactor } from "../../plugins/auth-guard.ts";
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
  route(app, endpoints.appealRejection, ({ sessionUser, params, body, now }) =>
    appealRejection(app.db, {
      workerId: sessionUser.id,
      submissionId: params.id,
      message: body.message,
      now,
    }),
  );

  route(app, endpoints.overturnRejection, ({ sessionUser, params, now }) =>
    overturnAppeal(app.db, { decider: { buyerId: sessionUser.id }, submissionId: params.id, now }),
  );

  route(app, endpoints.upholdRejection, ({ sessionUser, params, body, now }) =>
    upholdByBuyer(app.db, { buyerId: sessionUser.id, submissionId: params.id, answer: body.answer, now }),
  );

  route(app, endpoints.escalateAppeal, ({ sessionUser, params, now }) =>
    escalateAppeal(app.db, { workerId: sessionUser.id, submissionId: params.id, now }),
  );

  route(app, endpoints.listEscalatedAppeals, (request) => listEscalatedAppeals(app.db, request.query));

  route(
    app,
    endpoints.decideAppeal,
    ({ sessionUser, params, body, now }) => {
      const decided = { submissionId: params.submission_id, answer: body.answer, now };
      return body.decision === "overturn"
        ? overturnAppeal(app.db, { decider: { adminId: sessionUser.id }, ...decided })
        : upholdByAdmin(app.db, { adminId: sessionUser.id, ...decided });
    },
    { preHandler: requireAdminWithTwoFactor },
  );
};
