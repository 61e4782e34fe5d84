import { statsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "../../plugins/endpoint-route.ts";
import { adminStats, buyerStats, dailyActivity, topWorkers, workerStats } from "./service.ts";

export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.listTopWorkers, () => topWorkers(app.db));

  route(app, endpoints.getWorkerStats, (request) => workerStats(app.db, request.sessionUser.id));

  route(app, endpoints.getBuyerStats, (request) => buyerStats(app.db, request.sessionUser.id));

  route(app, endpoints.getAdminStats, () => adminStats(app.db));

  route(app, endpoints.getDailyStats, (request) => dailyActivity(app.db, request.now, request.query.days));
};
