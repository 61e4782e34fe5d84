import type { FastifyInstance, FastifyRequest } from "fastify";
import { trustedOrigins, type Env } from "../env.ts";
import { AppError } from "../lib/errors.ts";
import { apiKeyCredentials } from "./api-key-auth.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A host name or IP address (IPv6 in brackets), with an optional port: nothing else a Host header may say. */
const HOST = /^(?:[\w-]+(?:\.[\w-]+)*\.?|\[[\da-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin a request was sent to: its scheme and its Host header as fastify reads them (no
 * proxy's header is believed, as the app trusts no proxy), or null when the Host is not a host.
 * A browser sets the Host itself, so a page elsewhere cannot send our Host with its own Origin.
 */
export function ownOrigin(request: FastifyRequest): string | null {
  const host = request.host;
  return HOST.test(host) && URL.canParse(`${request.protocol}://${host}`)
    ? new URL(`${request.protocol}://${host}`).origin
    : null;
}

/**
 * Mutating requests from a browser must come from the app's own origin (api.md): the one the
 * request was sent to (http://127.0.0.1:3000 or a LAN address as well as localhost), or one
 * configured (PUBLIC_URL's, and the dev server's outside production). Refuses them when the
 * browser says they come from elsewhere. A request presenting an API key is let through: it is
 * no browser's (no page can set another site's Authorization header without CORS, which the
 * app does not allow), and it is authenticated by the key alone, never by a cookie it carries
 * (api-key-auth.ts, decision 033).
 */
export function refuseCrossOriginMutations(app: FastifyInstance, env: Env) {
  const configured = new Set(trustedOrigins(env));
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method) || apiKeyCredentials(request) !== null) return;
    const origin = request.headers.origin;
    const fetchSite = request.headers["sec-fetch-site"];
    // Without an Origin it is no browser's request from another page (browsers send one with every POST).
    const trusted = !origin || configured.has(origin) || origin === ownOrigin(request);
    if (!trusted || fetchSite === "cross-site") {
      throw new AppError("FORBIDDEN", "Requests from other sites are refused");
    }
  });
}
