import { z } from "zod";
import { textSchema } from "./text.ts";

/** The `:id` of a route, with the message a wrong one gets ("Unknown task"). */
export const idParamsSchema = (message: string) => z.object({ id: z.uuid(message) });

/** Answer of deleting a task: the coins its open slots returned to the buyer. */
export const refundedCoinsSchema = z.object({ refunded_coins: z.number().int() });
export type RefundedCoins = z.infer<typeof refundedCoinsSchema>;

export const healthSchema = z.object({ ok: z.boolean() });

export const paymentProviders = ["sandbox", "stripe"] as const;
export type PaymentProvider = (typeof paymentProviders)[number];

/** Answer of GET /api/config: what the web app needs to know about the server's set-up. */
export const serverConfigSchema = z.object({
  google_enabled: z.boolean(),
  repository_url: z.string(),
  payment_provider: z.enum(paymentProviders),
});
export type ServerConfig = z.infer<typeof serverConfigSchema>;

/** Body of rejecting a submission or a withdrawal: the reason the other side reads. */
export const rejectionSchema = z.object({ reason: textSchema("A reason", { max: 1_000 }) });
export type Rejection = z.infer<typeof rejectionSchema>;
