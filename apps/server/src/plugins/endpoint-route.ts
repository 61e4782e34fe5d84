import type { Access, Endpoint } from "@taskmint/shared";
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
import { requireRole } from "./auth-guard.ts";

type App = FastifyInstance<
  FastifyInstance["server"],
  FastifyRequest["raw"],
  FastifyReply["raw"],
  FastifyInstance["log"],
  ZodTypeProvider
>;

type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;

/** The request as the endpoint's schemas leave it (validated, trimmed, defaults filled in). */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: Parsed<E["params"]>;
  Querystring: Parsed<E["query"]>;
  Body: Parsed<E["body"]>;
  Headers: Parsed<E["headers"]>;
}>;

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

/**
 * Registers the route of a declared endpoint (decision 032): its method, path and schemas come
 * from the declaration, its access decides the role check that runs before anything else, its
 * `keys` whether an API key may call it, and a declared 201 is the status the handler's answer
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
  const status = successStatusOf(endpoint);
  const handle = handler as unknown as (request: FastifyRequest, reply: FastifyReply) => unknown;
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
