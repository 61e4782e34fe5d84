import { healthEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { databaseAnswers } from "../../db/client.ts";
import { route } from "../../plugins/endpoint-route.ts";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.checkHealth, async (_request, reply) =>
    (await databaseAnswers(app.db)) ? { ok: true as const } : reply.status(503).send({ ok: false as const }),
  );

  route(app, endpoints.getConfig, () => ({
    google_enabled: Boolean(app.env.GOOGLE_CLIENT_ID),
    repository_url: app.env.REPOSITORY_URL,
    payment_provider: app.payments.name,
  }));
};
