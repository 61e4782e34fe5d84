import { z } from "zod";
import { idParamsSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import { optionalIdempotencyHeadersSchema } from "../idempotency.ts";
import { pageOf, pageQuerySchema } from "../paging.ts";
import {
  blockedWorkerSchema,
  blockRequestSchema,
  hiddenBuyerSchema,
  hideBuyerRequestSchema,
  workerReputationSchema,
} from "../trust.ts";

/** Reputation, a buyer's blocked workers and a worker's hidden buyers. */
export const trustEndpoints = {
  getWorkerReputation: defineEndpoint({
    method: "GET",
    path: "/api/workers/:id/reputation",
    operationId: "getWorkerReputation",
    access: "user",
    tags: ["trust"],
    summary: "A worker's approval rate, decided submissions and level",
    description:
      "Approval rate = approved / (approved + rejected) in whole percent (auto-approved and overturned count as approved), null before any decision. Levels: new (< 10 decided), bronze (10+, 80%+), silver (50+, 90%+), gold (200+, 95%+).",
    params: idParamsSchema("Unknown worker"),
    response: { 200: workerReputationSchema },
  }),
  blockWorker: defineEndpoint({
    method: "POST",
    path: "/api/buyer/blocks",
    operationId: "blockWorker",
    access: "buyer",
    keys: true,
    headers: optionalIdempotencyHeadersSchema,
    tags: ["buyer"],
    summary: "Block a worker from your tasks, with a private note",
    description:
      "The worker no longer sees, reserves or submits to your tasks (403 NOT_QUALIFIED); their pending work stays reviewable. Blocking again replaces the note.",
    body: blockRequestSchema,
    response: { 201: blockedWorkerSchema },
    errors: [404, 409],
  }),
  unblockWorker: defineEndpoint({
    method: "DELETE",
    path: "/api/buyer/blocks/:worker_id",
    operationId: "unblockWorker",
    access: "buyer",
    keys: true,
    tags: ["buyer"],
    summary: "Unblock a worker; answers the block removed",
    params: z.object({ worker_id: z.uuid("Unknown worker") }),
    response: { 200: blockedWorkerSchema },
  }),
  listBlockedWorkers: defineEndpoint({
    method: "GET",
    path: "/api/buyer/blocks",
    operationId: "listBlockedWorkers",
    access: "buyer",
    keys: true,
    tags: ["buyer"],
    summary: "Workers you blocked, newest first",
    query: pageQuerySchema,
    response: { 200: pageOf(blockedWorkerSchema) },
  }),
  hideBuyer: defineEndpoint({
    method: "POST",
    path: "/api/worker/hidden-buyers",
    operationId: "hideBuyer",
    access: "worker",
    tags: ["worker"],
    summary: "Stop seeing a buyer's tasks in your lists",
    body: hideBuyerRequestSchema,
    response: { 201: hiddenBuyerSchema },
    errors: [404, 409],
  }),
  unhideBuyer: defineEndpoint({
    method: "DELETE",
    path: "/api/worker/hidden-buyers/:buyer_id",
    operationId: "unhideBuyer",
    access: "worker",
    tags: ["worker"],
    summary: "See a hidden buyer's tasks again; answers the entry removed",
    params: z.object({ buyer_id: z.uuid("Unknown buyer") }),
    response: { 200: hiddenBuyerSchema },
  }),
  listHiddenBuyers: defineEndpoint({
    method: "GET",
    path: "/api/worker/hidden-buyers",
    operationId: "listHiddenBuyers",
    access: "worker",
    tags: ["worker"],
    summary: "Buyers whose tasks you hid, newest first",
    query: pageQuerySchema,
    response: { 200: pageOf(hiddenBuyerSchema) },
  }),
};
