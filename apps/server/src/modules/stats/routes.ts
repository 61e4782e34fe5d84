import { statsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { adminStats, buyerStats, dailyActivity, topWorkers, workerStats } from "./service.ts";

export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.listTopWorkers, () => topWorkers(app.db));

  route(app, endpoints.getWorkerStats, async (request) =>
    workerStats(app.db, (await currentUser(request)).id),
  );

  route(app, endpoints.getBuyerStats, async (request) => buyerStats(app.db, (await currentUser(request)).id));

  route(app, endpoints.getAdminStats, () => adminStats(app.db));

  route(app, endpoints.getDailyStats, (request) => dailyActivity(app.db, app.clock(), request.query.days));
};
