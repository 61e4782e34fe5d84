import { z } from "zod";
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeySchema } from "./trust.ts";

/**
 * The Idempotency-Key header of every POST a key can make (decision 036): optional, but when
 * sent, a retry with the same key and request answers the first answer and does nothing again.
 */
export const optionalIdempotencyHeadersSchema = z.object({
  [IDEMPOTENCY_KEY_HEADER]: idempotencyKeySchema.optional(),
});
