import { z } from "zod";
import { textSchema } from "./text.ts";

// Issue 35, item 1 (decision 033): a buyer's API keys. A key is `tm_` and 43 base64url
// characters (32 random bytes), sent as `Authorization: Bearer tm_...`.

/** What every key starts with, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = "tm_";
/** A key's full shape: the prefix and 32 random bytes in base64url. */
export const API_KEY_PATTERN = /^tm_[A-Za-z0-9_-]{43}$/;
/** How many live (unrevoked) keys a buyer may hold; the next is 409 LIMIT_REACHED. */
export const MAX_API_KEYS_PER_BUYER = 20;
/** Requests each key may make in a minute; the next is 429 RATE_LIMITED with Retry-After. */
export const API_KEY_REQUESTS_PER_MINUTE = 600;
/** How many characters of a key its owner sees in the list (the prefix and 8 of the secret). */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 8;

/** Body of POST /api/buyer/api-keys. */
export const createApiKeySchema = z.object({ name: textSchema("A name", { max: 100 }) }).strict();
export type CreateApiKeyRequest = z.input<typeof createApiKeySchema>;

/** Answer of creating a key: the key itself, shown this once. */
export const createdApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string(),
  created_at: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** A live key as its owner sees it: never the secret, only its first characters. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
