import { z } from "zod";
import {
  blockedWorkerSchema,
  blockRequestSchema,
  hiddenBuyerSchema,
  hideBuyerRequestSchema,
  idParamsSchema,
  pageOf,
  pageQuerySchema,
  workerReputationSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import {
  blockWorker,
  hideBuyer,
  listBlocks,
  listHiddenBuyers,
  reputationOfUser,
  unblockWorker,
  unhideBuyer,
} from "./service.ts";

const workerParams = z.object({ worker_id: z.uuid("Unknown worker") });
const buyerParams = z.object({ buyer_id: z.uuid("Unknown buyer") });

export const trustRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/workers/:id/reputation",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["trust"],
        summary: "A worker's approval rate, decided submissions and level",
        description:
          "Approval rate = approved / (approved + rejected) in whole percent (auto-approved and overturned count as approved), null before any decision. Levels: new (< 10 decided), bronze (10+, 80%+), silver (50+, 90%+), gold (200+, 95%+).",
        params: idParamsSchema("Unknown worker"),
        response: { 200: workerReputationSchema },
      },
    },
    async (request) => reputationOfUser(app.db, request.params.id),
  );

  app.post(
    "/api/buyer/blocks",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Block a worker from your tasks, with a private note",
        description:
          "The worker no longer sees, reserves or submits to your tasks (403 NOT_QUALIFIED); their pending work stays reviewable. Blocking again replaces the note.",
        body: blockRequestSchema,
        response: { 201: blockedWorkerSchema },
      },
    },
    async (request, reply) => {
      const block = await blockWorker(app.db, {
        buyerId: (await currentUser(request)).id,
        workerId: request.body.worker_id,
        note: request.body.note,
        now: app.clock(),
      });
      return reply.status(201).send(block);
    },
  );

  app.delete(
    "/api/buyer/blocks/:worker_id",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Unblock a worker; answers the block removed",
        params: workerParams,
        response: { 200: blockedWorkerSchema },
      },
    },
    async (request) =>
      unblockWorker(app.db, { buyerId: (await currentUser(request)).id, workerId: request.params.worker_id }),
  );

  app.get(
    "/api/buyer/blocks",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Workers you blocked, newest first",
        querystring: pageQuerySchema,
        response: { 200: pageOf(blockedWorkerSchema) },
      },
    },
    async (request) => listBlocks(app.db, (await currentUser(request)).id, request.query),
  );

  app.post(
    "/api/worker/hidden-buyers",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Stop seeing a buyer's tasks in your lists",
        body: hideBuyerRequestSchema,
        response: { 201: hiddenBuyerSchema },
      },
    },
    async (request, reply) => {
      const hidden = await hideBuyer(app.db, {
        workerId: (await currentUser(request)).id,
        buyerId: request.body.buyer_id,
        now: app.clock(),
      });
      return reply.status(201).send(hidden);
    },
  );

  app.delete(
    "/api/worker/hidden-buyers/:buyer_id",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "See a hidden buyer's tasks again; answers the entry removed",
        params: buyerParams,
        response: { 200: hiddenBuyerSchema },
      },
    },
    async (request) =>
      unhideBuyer(app.db, { workerId: (await currentUser(request)).id, buyerId: request.params.buyer_id }),
  );

  app.get(
    "/api/worker/hidden-buyers",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Buyers whose tasks you hid, newest first",
        querystring: pageQuerySchema,
        response: { 200: pageOf(hiddenBuyerSchema) },
      },
    },
    async (request) => listHiddenBuyers(app.db, (await currentUser(request)).id, request.query),
  );
};
