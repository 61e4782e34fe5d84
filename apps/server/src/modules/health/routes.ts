import { healthSchema, serverConfigSchema } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { databaseAnswers } from "../../db/client.ts";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/healthz",
    {
      schema: {
        tags: ["operations"],
        summary: "200 when the database answers",
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) =>
      (await databaseAnswers(app.db))
        ? { ok: true as const }
        : reply.status(503).send({ ok: false as const }),
  );

  app.get(
    "/api/config",
    {
      schema: {
        tags: ["operations"],
        summary: "What the web app needs to know about this server's set-up",
        response: { 200: serverConfigSchema },
      },
    },
    () => ({
      google_enabled: Boolean(app.env.GOOGLE_CLIENT_ID),
      repository_url: app.env.REPOSITORY_URL,
      payment_provider: app.payments.name,
    }),
  );
};
