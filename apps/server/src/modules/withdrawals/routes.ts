import {
  idParamsSchema,
  pageOf,
  pageQuerySchema,
  rejectionSchema,
  withdrawalApprovalSchema,
  withdrawalListQuerySchema,
  withdrawalRequestSchema,
  withdrawalSchema,
} from "@taskmint/shared";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireAdminWithTwoFactor, requireRole } from "../../plugins/auth-guard.ts";
import {
  cancelWithdrawal,
  decideWithdrawal,
  listAllWithdrawals,
  listWorkerWithdrawals,
  requestWithdrawal,
  type WithdrawalDecision,
} from "./service.ts";

const idParams = idParamsSchema("Unknown withdrawal");

export const withdrawalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/withdrawals",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Ask to withdraw coins; they are held at once",
        body: withdrawalRequestSchema,
        response: { 201: withdrawalSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await requestWithdrawal(app.db, (await currentUser(request)).id, request.body)),
  );

  app.get(
    "/api/worker/withdrawals",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Your withdrawals, newest first",
        querystring: pageQuerySchema,
        response: { 200: pageOf(withdrawalSchema) },
      },
    },
    async (request) => listWorkerWithdrawals(app.db, (await currentUser(request)).id, request.query),
  );

  app.post(
    "/api/withdrawals/:id/cancel",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Cancel your pending withdrawal; the held coins return to your balance",
        params: idParams,
        response: { 200: withdrawalSchema },
      },
    },
    async (request) =>
      cancelWithdrawal(app.db, {
        workerId: (await currentUser(request)).id,
        withdrawalId: request.params.id,
        now: app.clock(),
      }),
  );

  app.get(
    "/api/admin/withdrawals",
    {
      preHandler: requireRole("admin"),
      schema: {
        tags: ["admin"],
        summary:
          "Every withdrawal, newest first, by status and worker name or email; pending ones carry their risk",
        querystring: withdrawalListQuerySchema,
        response: { 200: pageOf(withdrawalSchema) },
      },
    },
    async (request) => {
      const { status, q, ...page } = request.query;
      return listAllWithdrawals(app.db, { status, q }, page);
    },
  );

  const decide = async (request: FastifyRequest<{ Params: { id: string } }>, decision: WithdrawalDecision) =>
    decideWithdrawal(app.db, {
      adminId: (await currentUser(request)).id,
      withdrawalId: request.params.id,
      decision,
      now: app.clock(),
    });

  app.post(
    "/api/admin/withdrawals/:id/approve",
    {
      preHandler: requireAdminWithTwoFactor,
      schema: {
        tags: ["admin"],
        summary: "Pay out a pending withdrawal under the reference it was paid with",
        description:
          "A high-risk withdrawal answers 409 RISK_CONFIRMATION_REQUIRED (with the risk) unless `confirm_high_risk` is true.",
        params: idParams,
        body: withdrawalApprovalSchema.nullish(),
        response: { 200: withdrawalSchema },
      },
    },
    (request) => decide(request, { approve: true, ...request.body }),
  );

  app.post(
    "/api/admin/withdrawals/:id/reject",
    {
      preHandler: requireAdminWithTwoFactor,
      schema: {
        tags: ["admin"],
        summary: "Refuse a pending withdrawal; the coins go back to the worker",
        params: idParams,
        body: rejectionSchema,
        response: { 200: withdrawalSchema },
      },
    },
    (request) => decide(request, { approve: false, reason: request.body.reason }),
  );
};
