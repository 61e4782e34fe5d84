import type { FastifyInstance } from "fastify";
import { trustedOrigins, type Env } from "../env.ts";
import { AppError } from "../lib/errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Mutating requests from a browser must come from the app's own origin (api.md):
 * refuses them when the browser says they come from elsewhere.
 */
export function refuseCrossOriginMutations(app: FastifyInstance, env: Env) {
  const allowed = new Set(trustedOrigins(env));
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    const fetchSite = request.headers["sec-fetch-site"];
    if (
      (origin && origin !== "null" && !allowed.has(origin)) ||
      origin === "null" ||
      fetchSite === "cross-site"
    ) {
      throw new AppError("FORBIDDEN", "Requests from other sites are refused");
    }
  });
}
