import {
  idParamsSchema,
  pageOf,
  pageQuerySchema,
  rejectionSchema,
  withdrawalListQuerySchema,
  withdrawalRequestSchema,
  withdrawalSchema,
} from "@taskmint/shared";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { decideWithdrawal, listWithdrawals, requestWithdrawal, type WithdrawalDecision } from "./service.ts";

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
    async (request) => listWithdrawals(app.db, { workerId: (await currentUser(request)).id }, request.query),
  );

  app.get(
    "/api/admin/withdrawals",
    {
      preHandler: requireRole("admin"),
      schema: {
        tags: ["admin"],
        summary: "Withdrawals, newest first",
        querystring: withdrawalListQuerySchema,
        response: { 200: pageOf(withdrawalSchema) },
      },
    },
    async (request) => {
      const { status, ...page } = request.query;
      return listWithdrawals(app.db, { status }, page);
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
      preHandler: requireRole("admin"),
      schema: {
        tags: ["admin"],
        summary: "Pay out a pending withdrawal",
        params: idParams,
        response: { 200: withdrawalSchema },
      },
    },
    (request) => decide(request, { approve: true }),
  );

  app.post(
    "/api/admin/withdrawals/:id/reject",
    {
      preHandler: requireRole("admin"),
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
