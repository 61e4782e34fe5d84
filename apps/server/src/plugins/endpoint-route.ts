import { createHash } from "node:crypto";
import { IDEMPOTENCY_KEY_HEADER, type Access, type Endpoint } from "@taskmint/shared";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  preHandlerAsyncHookHandler,
  RouteShorthandOptions,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { fingerprintOf, runOnce } from "../lib/idempotency.ts";
import { readMultipart } from "../lib/multipart.ts";
import { currentUser, requireRole, type SessionUser } from "./auth-guard.ts";

type App = FastifyInstance<
  FastifyInstance["server"],
  FastifyRequest["raw"],
  FastifyReply["raw"],
  FastifyInstance["log"],
  ZodTypeProvider
>;

type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;

/** Past the role check of an access that needs one, the request's user is known. */
type SignedIn<E extends Endpoint> = E["access"] extends "public" | "optional"
  ? unknown
  : { sessionUser: SessionUser };

/**
 * The request as the endpoint's schemas leave it (validated, trimmed, defaults filled in), with
 * its user when the endpoint's access needs one.
 */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: Parsed<E["params"]>;
  Querystring: Parsed<E["query"]>;
  Body: Parsed<E["body"]>;
  Headers: Parsed<E["headers"]>;
}> &
  SignedIn<E>;

/** A signed-in request with these params, for helpers that several routes share. */
export type SignedInRequest<Params> = FastifyRequest<{ Params: Params }> & { sessionUser: SessionUser };

type Answer<E extends Endpoint> =
  E["response"] extends Record<number, z.ZodType> ? z.input<E["response"][keyof E["response"]]> : unknown;

type Handler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<Answer<E> | FastifyReply> | Answer<E> | FastifyReply;

/** What the route adds to its declaration: limits, and guards run after the access check. */
type RouteOptions = Pick<RouteShorthandOptions, "config" | "bodyLimit"> & {
  preHandler?: preHandlerAsyncHookHandler | preHandlerAsyncHookHandler[];
};

const roleGuards: Record<Access, preHandlerAsyncHookHandler[]> = {
  public: [],
  optional: [],
  user: [requireRole()],
  worker: [requireRole("worker")],
  buyer: [requireRole("buyer")],
  admin: [requireRole("admin")],
  "buyer+admin": [requireRole("buyer", "admin")],
};

/** The router's schema of an endpoint: what it validates, what it serializes, what it documents. */
function schemaOf(endpoint: Endpoint): FastifySchema & Record<string, unknown> {
  return {
    tags: [...endpoint.tags],
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    ...(endpoint.headers ? { headers: endpoint.headers } : {}),
    ...(endpoint.form
      ? { consumes: ["multipart/form-data", ...(endpoint.form.json ? ["application/json"] : [])] }
      : {}),
    ...(endpoint.response ? { response: endpoint.response } : {}),
  };
}

/** The status a successful answer takes when the declaration names one other than 200 (201 Created). */
function successStatusOf(endpoint: Endpoint) {
  const statuses = Object.keys(endpoint.response ?? {})
    .map(Number)
    .filter((status) => status < 300);
  return statuses.length === 1 && statuses[0] !== 200 ? statuses[0] : undefined;
}

/** What an Idempotency-Key compares of a request: the JSON body, or a form's fields and files' hashes. */
async function bodyOf(endpoint: Endpoint, request: FastifyRequest) {
  if (!endpoint.form || (endpoint.form.json && !request.isMultipart())) return request.body ?? null;
  const form = await readMultipart(request, endpoint.form);
  const files = Object.entries(form.files).map(([name, contents]): [string, string[]] => [
    name,
    contents.map((bytes) => createHash("sha256").update(bytes).digest("hex")),
  ]);
  return { fields: form.fields, files: Object.fromEntries(files) };
}

type RawHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * Decision 036: a POST an API key can make runs once per Idempotency-Key (when one is sent),
 * for key and session requests alike; a retry answers the first answer, marked with
 * `Idempotent-Replayed: true`.
 */
function idempotent(app: App, endpoint: Endpoint, handle: RawHandler): RawHandler {
  return async (request, reply) => {
    const key = (request.headers as Record<string, string | undefined>)[IDEMPOTENCY_KEY_HEADER];
    if (key === undefined) return handle(request, reply);
    const ownerId = (await currentUser(request)).id;
    const body = await bodyOf(endpoint, request);
    const fingerprint = fingerprintOf({ method: request.method, url: request.url, body });
    const result = await runOnce(app.db, { ownerId, key, fingerprint, clock: app.clock }, async () => {
      const answer = await handle(request, reply);
      if (answer === reply)
        throw new Error(`${endpoint.operationId} sent its answer itself: it cannot be kept`);
      return { status: reply.statusCode, answer };
    });
    void reply.code(result.status);
    if (result.replayed) void reply.header("idempotent-replayed", "true");
    return result.answer;
  };
}

/** Whether a declaration documents the Idempotency-Key header. */
const declaresIdempotencyKey = (endpoint: Endpoint) =>
  Boolean(
    (endpoint.headers as { shape?: Record<string, unknown> } | undefined)?.shape?.[IDEMPOTENCY_KEY_HEADER],
  );

/**
 * Registers the route of a declared endpoint (decision 032): its method, path and schemas come
 * from the declaration, its access decides the role check that runs before anything else, its
 * `keys` whether an API key may call it (and a POST it may call honours an Idempotency-Key), and a declared 201 is the status the handler's answer
 * goes out with.
 */
export function route<E extends Endpoint>(
  app: App,
  endpoint: E,
  handler: Handler<E>,
  options: RouteOptions = {},
) {
  const { preHandler, config, ...rest } = options;
  if (endpoint.keys && endpoint.access !== "buyer" && endpoint.access !== "buyer+admin")
    throw new Error(
      `${endpoint.operationId}: an API key acts as its buyer, so only buyer endpoints take keys`,
    );
  const takesKey = endpoint.method === "POST" && endpoint.keys === true;
  if (takesKey && !declaresIdempotencyKey(endpoint))
    throw new Error(`${endpoint.operationId}: a POST a key can make declares the Idempotency-Key header`);
  const status = successStatusOf(endpoint);
  const given = handler as unknown as RawHandler;
  const handle = takesKey ? idempotent(app, endpoint, given) : given;
  app.route({
    ...rest,
    // Read by api-key-auth.ts: whether an API key may call this route (decision 033).
    config: { ...config, apiKeys: endpoint.keys === true },
    method: endpoint.method,
    url: endpoint.path,
    schema: schemaOf(endpoint),
    preHandler: [...roleGuards[endpoint.access], ...(preHandler ? [preHandler].flat() : [])],
    handler: status
      ? (request, reply) => {
          void reply.code(status);
          return handle(request, reply);
        }
      : handle,
  });
}
