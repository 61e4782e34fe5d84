import { API_KEY_PATTERN, API_KEY_PREFIX, API_KEY_REQUESTS_PER_MINUTE } from "@taskmint/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../lib/errors.ts";

// Issue 35 (decision 033): programs authenticate with a buyer's API key,
// `Authorization: Bearer tm_...`, on the endpoints whose declaration says `keys: true`.

/**
 * The credentials of a request that presents an API key: what follows `Bearer` in its
 * Authorization header ("" when nothing does), or the header itself when it is a bare `tm_` key.
 * Null for a request without an Authorization header or with another scheme (Basic).
 */
export function apiKeyCredentials(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string") return null;
  const value = header.trim();
  if (value.startsWith(API_KEY_PREFIX)) return value;
  const scheme = value.slice(0, 6).toLowerCase();
  if (scheme !== "bearer" || (value.length > 6 && value[6] !== " " && value[6] !== "\t")) return null;
  return value.slice(6).trim();
}

const HOW_TO_SEND = `Send a key as "Authorization: Bearer ${API_KEY_PREFIX}" followed by its 43 characters`;

/**
 * Authenticates the requests that present an API key, before any route's own checks. Such a
 * request is the key's alone: the session cookie it may also carry is never read, so a key
 * never borrows a session's wider rights. Where the route's declaration does not accept keys
 * (admin, account, key management, and every route not built for programs), 403. A malformed,
 * unknown or revoked key, or one whose owner is deleted or no longer a buyer, 401. Each key
 * has API_KEY_REQUESTS_PER_MINUTE requests a minute (429 with Retry-After beyond).
 */
export function authenticateApiKeys(app: FastifyInstance) {
  const perKey = app.createRateLimit({
    limitName: "api key requests",
    max: API_KEY_REQUESTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `api-key:${request.apiKey?.keyId ?? ""}`,
  });
  app.addHook("onRequest", async (request, reply) => {
    const credentials = apiKeyCredentials(request);
    if (credentials === null) return;
    request.sessionUser = null;
    if (request.routeOptions.config.apiKeys !== true)
      throw new AppError(
        "FORBIDDEN",
        `API keys cannot call ${request.method} ${request.routeOptions.url ?? "this address"}: it needs a signed-in session. Keys work on the operations the API description marks with the apiKey scheme (/api/docs)`,
      );
    if (!API_KEY_PATTERN.test(credentials))
      throw new AppError("UNAUTHENTICATED", `The API key is malformed. ${HOW_TO_SEND}`);
    const holder = await app.readApiKey(credentials, app.clock());
    if (!holder)
      throw new AppError(
        "UNAUTHENTICATED",
        "This API key is not valid: it was revoked, never existed, or its account can no longer use keys",
      );
    request.apiKey = holder;
    const counted = await perKey(request);
    if (!counted.isAllowed && counted.isExceeded) {
      void reply.header("retry-after", String(Math.max(counted.ttlInSeconds, 1)));
      throw new AppError(
        "RATE_LIMITED",
        `This API key made more than ${API_KEY_REQUESTS_PER_MINUTE} requests in a minute: retry after the Retry-After header's seconds`,
        { limit: API_KEY_REQUESTS_PER_MINUTE },
      );
    }
    request.sessionUser = {
      id: holder.buyerId,
      role: "buyer",
      sessionId: `api-key:${holder.keyId}`,
      twoFactorEnabled: false,
      twoFactorVerified: false,
      apiKeyId: holder.keyId,
    };
  });
}
