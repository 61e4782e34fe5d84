import { z } from "zod";
import {
  bonusRequestSchema,
  bonusSchema,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeySchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { sendBonus } from "./service.ts";

export const bonusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/bonuses",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Send a bonus from your wallet to a worker who submitted to your task",
        description:
          "Needs an Idempotency-Key header: a retry with the same key and body answers the first bonus again and pays nothing more; the same key with another body is 409 IDEMPOTENCY_MISMATCH. 409 INSUFFICIENT_COINS when your wallet cannot pay.",
        headers: z.object({ [IDEMPOTENCY_KEY_HEADER]: idempotencyKeySchema }),
        body: bonusRequestSchema,
        response: { 201: bonusSchema },
      },
    },
    async (request, reply) => {
      const bonus = await sendBonus(app.db, {
        buyerId: (await currentUser(request)).id,
        idempotencyKey: request.headers[IDEMPOTENCY_KEY_HEADER],
        request: request.body,
        now: app.clock(),
      });
      return reply.status(201).send(bonus);
    },
  );
};
