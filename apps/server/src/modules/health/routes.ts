import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { databaseAnswers } from "../../db/client.ts";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/healthz",
    {
      schema: {
        tags: ["operations"],
        summary: "200 when the database answers",
        response: { 200: z.object({ ok: z.literal(true) }), 503: z.object({ ok: z.literal(false) }) },
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
        response: {
          200: z.object({
            google_enabled: z.boolean(),
            repository_url: z.string(),
            payment_provider: z.enum(["sandbox", "stripe"]),
          }),
        },
      },
    },
    () => ({
      google_enabled: Boolean(app.env.GOOGLE_CLIENT_ID),
      repository_url: app.env.REPOSITORY_URL,
      payment_provider: app.payments.name,
    }),
  );
};
