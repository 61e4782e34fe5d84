import { z } from "zod";
import { dailyActivityQuerySchema } from "../admin.ts";
import { defineEndpoint } from "../endpoint.ts";
import {
  adminStatsSchema,
  buyerStatsSchema,
  dailyActivitySchema,
  topWorkerSchema,
  workerStatsSchema,
} from "../stats.ts";

/** The top workers, each role's own stats and the platform's. */
export const statsEndpoints = {
  listTopWorkers: defineEndpoint({
    method: "GET",
    path: "/api/workers/top",
    operationId: "listTopWorkers",
    access: "public",
    tags: ["public"],
    summary: "The six workers with the most coins",
    response: { 200: z.array(topWorkerSchema) },
  }),
  getWorkerStats: defineEndpoint({
    method: "GET",
    path: "/api/worker/stats",
    operationId: "getWorkerStats",
    access: "worker",
    tags: ["worker"],
    summary: "Your submission stats",
    response: { 200: workerStatsSchema },
  }),
  getBuyerStats: defineEndpoint({
    method: "GET",
    path: "/api/buyer/stats",
    operationId: "getBuyerStats",
    access: "buyer",
    keys: true,
    tags: ["buyer"],
    summary: "Your task and payment stats",
    response: { 200: buyerStatsSchema },
  }),
  getAdminStats: defineEndpoint({
    method: "GET",
    path: "/api/admin/stats",
    operationId: "getAdminStats",
    access: "admin",
    tags: ["admin"],
    summary: "Platform stats",
    response: { 200: adminStatsSchema },
  }),
  getDailyStats: defineEndpoint({
    method: "GET",
    path: "/api/admin/stats/daily",
    operationId: "getDailyStats",
    access: "admin",
    tags: ["admin"],
    summary: "Activity per UTC day: coins issued and paid out, tasks posted, submissions",
    query: dailyActivityQuerySchema,
    response: { 200: z.array(dailyActivitySchema) },
  }),
};
