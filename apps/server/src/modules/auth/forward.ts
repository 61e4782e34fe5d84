import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isDatabaseUnavailable } from "../../lib/db-errors.ts";
import { databaseUnavailable } from "../../lib/errors.ts";
import { codeForStatus } from "../../plugins/errors.ts";
import { ownOrigin } from "../../plugins/origin-check.ts";
import { authRequestErrors, headersForAuth } from "./auth.ts";

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
 * Forwards the request to the auth library as `path`, and rewrites its errors into the API's
 * format. `afterSuccess` runs before a successful answer is sent, so the client never sees
 * the answer before what it promises is done.
 */
async function forwardToAuth(
  app: FastifyInstance,
  call: {
    request: FastifyRequest;
    reply: FastifyReply;
    path: string;
    afterSuccess?: (cookies: string[]) => Promise<unknown>;
  },
) {
  const { request, reply, path, afterSuccess } = call;
  // The query the library reads is rebuilt from the one validated here: two parsers never
  // get to disagree about the same raw text.
  const checked = new URLSearchParams(
    request.method === "GET" ? (request.query as Record<string, string>) : {},
  ).toString();
  const query = checked ? `?${checked}` : "";
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const headers = headersForAuth(request);
  // The body is sent re-serialized from what was validated, so its length is no longer the client's.
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  const errors: unknown[] = [];
  const response = await authRequestErrors.run(errors, () =>
    app.auth.handler(
      // Addressed to where the browser sent it: the library trusts that origin as well (auth.ts).
      new Request(new URL(`/api/auth${path}${query}`, ownOrigin(request) ?? app.env.PUBLIC_URL), {
        method: request.method,
        headers,
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
      error: {
        code: codeForStatus(response.status),
        message: reason.message ?? "Authentication failed",
        details: { reason: reason.code },
      },
    });
  }
  await afterSuccess?.(cookies);
  return reply.send(withoutSessionToken(text));
}

/** forwardToAuth for one app, as the route handlers call it. */
export const authForwarder =
  (app: FastifyInstance) =>
  (
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    afterSuccess?: (cookies: string[]) => Promise<unknown>,
  ) =>
    forwardToAuth(app, { request, reply, path, afterSuccess });
