import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { bonusRequestSchema, bonusSchema, IDEMPOTENCY_KEY_HEADER, idempotencyKeySchema } from "../trust.ts";

/** A buyer's bonus to a worker. */
export const bonusesEndpoints = {
  sendBonus: defineEndpoint({
    method: "POST",
    path: "/api/bonuses",
    operationId: "sendBonus",
    access: "buyer",
    keys: true,
    tags: ["buyer"],
    summary: "Send a bonus from your wallet to a worker who submitted to your task",
    description:
      "Needs an Idempotency-Key header: a retry with the same key and body answers the first bonus again and pays nothing more; the same key with another body is 409 IDEMPOTENCY_MISMATCH. 409 INSUFFICIENT_COINS when your wallet cannot pay.",
    body: bonusRequestSchema,
    headers: z.object({ [IDEMPOTENCY_KEY_HEADER]: idempotencyKeySchema }),
    response: { 201: bonusSchema },
    errors: [404, 409],
  }),
};
