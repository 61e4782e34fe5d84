import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { fromNodeHeaders } from "better-auth/node";
import { isDatabaseUnavailable } from "../../lib/db-errors.ts";
import { databaseUnavailable } from "../../lib/errors.ts";
import { codeForStatus } from "../../plugins/errors.ts";
import { authRequestErrors } from "./auth.ts";

/** The session lives in an http-only cookie; its token has no business in a body scripts can read. */
function withoutSessionToken(text: string): string {
  if (!text.startsWith("{")) return text;
  try {
    const { token: _token, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return text;
  }
}

/**
 * Hands /api/auth/* to better-auth, and rewrites its error answers into the API's
 * error format so that every route fails the same way.
 */
export const authRoutes: FastifyPluginAsync<{ rateLimit: false | { max: number; timeWindow: string } }> = async (app, options) => {
  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const url = new URL(request.url, app.env.PUBLIC_URL);
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const errors: unknown[] = [];
    const response = await authRequestErrors.run(errors, () =>
      app.auth.handler(
        new Request(url, {
          method: request.method,
          headers: fromNodeHeaders(request.headers),
          body: hasBody ? JSON.stringify(request.body ?? {}) : undefined,
        }),
      ),
    );
    // Whatever the library answered (a 500, or a sign-out that kept the session), it did not happen.
    const lostDatabase = errors.find(isDatabaseUnavailable);
    if (lostDatabase) {
      request.log.warn({ err: lostDatabase }, "database unavailable");
      throw databaseUnavailable();
    }
    if (response.status >= 500) request.log.error({ err: errors[0] }, "auth request failed");
    reply.status(response.status);
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie" && name !== "content-length") void reply.header(name, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) void reply.header("set-cookie", cookies);

    const text = await response.text();
    if (response.status >= 400) {
      let reason: { code?: string; message?: string } = {};
      try {
        reason = JSON.parse(text) as typeof reason;
      } catch {
        // Not JSON: keep the status and a generic message.
      }
      return reply.type("application/json").send({
        error: { code: codeForStatus(response.status), message: reason.message ?? "Authentication failed", details: { reason: reason.code } },
      });
    }
    return reply.send(withoutSessionToken(text));
  }

  const hide = { schema: { hide: true } };
  // Sign-in attempts are counted per client address (fastify's request.ip, never a header the client sets).
  app.post("/api/auth/sign-in/*", { ...hide, config: options.rateLimit ? { rateLimit: options.rateLimit } : {} }, handle);
  app.route({ method: ["GET", "POST"], url: "/api/auth/*", ...hide, handler: handle });
};
