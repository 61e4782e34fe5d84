import { withdrawalsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireAdminWithTwoFactor } from "../../plugins/auth-guard.ts";
import { route, type SignedInRequest } from "../../plugins/endpoint-route.ts";
import {
  cancelWithdrawal,
  decideWithdrawal,
  listAllWithdrawals,
  listWorkerWithdrawals,
  requestWithdrawal,
  type WithdrawalDecision,
} from "./service.ts";

export const withdrawalRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.requestWithdrawal, (request) =>
    requestWithdrawal(app.db, request.sessionUser.id, request.body),
  );

  route(app, endpoints.listMyWithdrawals, (request) =>
    listWorkerWithdrawals(app.db, request.sessionUser.id, request.query),
  );

  route(app, endpoints.cancelWithdrawal, ({ sessionUser, params, now }) =>
    cancelWithdrawal(app.db, { workerId: sessionUser.id, withdrawalId: params.id, now }),
  );

  route(app, endpoints.listWithdrawals, (request) => {
    const { status, q, ...page } = request.query;
    return listAllWithdrawals(app.db, { status, q }, page);
  });

  const decide = (request: SignedInRequest<{ id: string }>, decision: WithdrawalDecision) =>
    decideWithdrawal(app.db, {
      adminId: request.sessionUser.id,
      withdrawalId: request.params.id,
      decision,
      now: request.now,
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
