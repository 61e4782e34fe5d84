import { z } from "zod";
import {
  apiKeySchema,
  createApiKeySchema,
  createdApiKeySchema,
  MAX_API_KEYS_PER_BUYER,
} from "../api-keys.ts";
import { idParamsSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";

/** A buyer's API keys (issue 35, decision 033): managed with a signed-in session only, never with a key. */
export const apiKeysEndpoints = {
  createApiKey: defineEndpoint({
    method: "POST",
    path: "/api/buyer/api-keys",
    operationId: "createApiKey",
    access: "buyer",
    tags: ["buyer"],
    summary: "Create a named API key; the key is in this answer only",
    description: `The key (\`tm_\` and 43 characters) authenticates a program as you with \`Authorization: Bearer tm_...\` on the operations that list the apiKey security scheme. It is stored only as a hash: keep it now. At most ${MAX_API_KEYS_PER_BUYER} live keys (then 409 LIMIT_REACHED).`,
    body: createApiKeySchema,
    response: { 201: createdApiKeySchema },
    errors: [409],
  }),
  listApiKeys: defineEndpoint({
    method: "GET",
    path: "/api/buyer/api-keys",
    operationId: "listApiKeys",
    access: "buyer",
    tags: ["buyer"],
    summary: "Your live API keys, newest first: names, first characters and when each was last used",
    description: `last_used_at is kept to the minute. At most ${MAX_API_KEYS_PER_BUYER} keys, so the list is not paged.`,
    response: { 200: z.array(apiKeySchema) },
  }),
  revokeApiKey: defineEndpoint({
    method: "DELETE",
    path: "/api/buyer/api-keys/:id",
    operationId: "revokeApiKey",
    access: "buyer",
    tags: ["buyer"],
    summary: "Revoke one of your API keys; it is refused from the next request on",
    params: idParamsSchema("Unknown API key"),
    response: { 204: z.null() },
  }),
};
