import {
  adminStatsSchema,
  buyerStatsSchema,
  dailyActivityQuerySchema,
  dailyActivitySchema,
  topWorkerSchema,
  workerStatsSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { adminStats, buyerStats, dailyActivity, topWorkers, workerStats } from "./service.ts";

export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/workers/top",
    {
      schema: {
        tags: ["public"],
        summary: "The six workers with the most coins",
        response: { 200: z.array(topWorkerSchema) },
      },
    },
    () => topWorkers(app.db),
  );

  app.get(
    "/api/worker/stats",
    {
      preHandler: requireRole("worker"),
      schema: { tags: ["worker"], summary: "Your submission stats", response: { 200: workerStatsSchema } },
    },
    async (request) => workerStats(app.db, (await currentUser(request)).id),
  );

  app.get(
    "/api/buyer/stats",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Your task and payment stats",
        response: { 200: buyerStatsSchema },
      },
    },
    async (request) => buyerStats(app.db, (await currentUser(request)).id),
  );

  app.get(
    "/api/admin/stats",
    {
      preHandler: requireRole("admin"),
      schema: { tags: ["admin"], summary: "Platform stats", response: { 200: adminStatsSchema } },
    },
    () => adminStats(app.db),
  );

  app.get(
    "/api/admin/stats/daily",
    {
      preHandler: requireRole("admin"),
      schema: {
        tags: ["admin"],
        summary: "Activity per UTC day: coins issued and paid out, tasks posted, submissions",
        querystring: dailyActivityQuerySchema,
        response: { 200: z.array(dailyActivitySchema) },
      },
    },
    (request) => dailyActivity(app.db, app.clock(), request.query.days),
  );
};
