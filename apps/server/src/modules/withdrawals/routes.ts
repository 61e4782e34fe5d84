import { withdrawalsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireAdminWithTwoFactor } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import {
  cancelWithdrawal,
  decideWithdrawal,
  listAllWithdrawals,
  listWorkerWithdrawals,
  requestWithdrawal,
  type WithdrawalDecision,
} from "./service.ts";

export const withdrawalRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.requestWithdrawal, async (request) =>
    requestWithdrawal(app.db, (await currentUser(request)).id, request.body),
  );

  route(app, endpoints.listMyWithdrawals, async (request) =>
    listWorkerWithdrawals(app.db, (await currentUser(request)).id, request.query),
  );

  route(app, endpoints.cancelWithdrawal, async (request) =>
    cancelWithdrawal(app.db, {
      workerId: (await currentUser(request)).id,
      withdrawalId: request.params.id,
      now: app.clock(),
    }),
  );

  route(app, endpoints.listWithdrawals, async (request) => {
    const { status, q, ...page } = request.query;
    return listAllWithdrawals(app.db, { status, q }, page);
  });

  const decide = async (request: FastifyRequest<{ Params: { id: string } }>, decision: WithdrawalDecision) =>
    decideWithdrawal(app.db, {
      adminId: (await currentUser(request)).id,
      withdrawalId: request.params.id,
      decision,
      now: app.clock(),
    });

  route(app, endpoints.approveWithdrawal, (request) => decide(request, { approve: true, ...request.body }), {
    preHandler: requireAdminWithTwoFactor,
  });

  route(
    app,
    endpoints.rejectWithdrawal,
    (request) => decide(request, { approve: false, reason: request.body.reason }),
    { preHandler: requireAdminWithTwoFactor },
  );
};
