import type { z } from "zod";

/**
 * One endpoint of the API, declared once (issue 33, decision 032): the server registers its
 * route from it, the OpenAPI document describes it, and the web calls it through one typed client.
 */

/** Who may call an endpoint: anyone, anyone (more for the signed-in), any signed-in user, or these roles. */
export type Access = "public" | "optional" | "user" | "worker" | "buyer" | "admin" | "buyer+admin";

/** Error statuses an endpoint answers besides those that follow from its inputs and access. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429;

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A multipart/form-data body: its text fields (the route parses them with `fields`) and its files. */
export interface FormBody {
  fields: z.ZodType;
  files: Record<string, { required: boolean; many?: number }>;
  /** Also taken as JSON (the files then absent). */
  json?: boolean;
  /** The largest file it takes, in bytes, when not the image limit (a batch's CSV). */
  maxFileBytes?: number;
}

export interface Endpoint {
  method: Method;
  /** In the router's form: `/api/tasks/:id`. */
  path: string;
  operationId: string;
  access: Access;
  tags: readonly string[];
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  form?: FormBody;
  /** Request headers the endpoint needs (an Idempotency-Key), validated like the rest. */
  headers?: z.ZodType;
  /** The answers by status; none for an answer passed through from the auth library, or one not JSON. */
  response?: Partial<Record<200 | 201 | 204 | 503, z.ZodType>>;
  errors?: readonly ErrorStatus[];
  /**
   * An API key (`Authorization: Bearer tm_...`) may call this endpoint, acting as its buyer
   * (decision 033). Only on buyer endpoints a program should use; a key is refused everywhere else.
   */
  keys?: true;
}

/** Declares an endpoint, keeping every literal of it in its type. */
export const defineEndpoint = <const E extends Endpoint>(endpoint: E): E => endpoint;

type Output<S> = S extends z.ZodType ? z.output<S> : never;

/** What a call of the endpoint answers when it succeeds. */
export type AnswerOf<E extends Endpoint> = E["response"] extends infer R
  ? R extends Record<number, unknown>
    ? Output<R[Extract<keyof R, 200 | 201 | 204>]>
    : unknown
  : unknown;

/** The path's parameters, as the route reads them. */
export type ParamsOf<E extends Endpoint> = E extends { params: z.ZodType } ? z.output<E["params"]> : never;
/** The query, each field optional (the route's defaults fill the rest). */
export type QueryOf<E extends Endpoint> = E extends { query: z.ZodType }
  ? { [K in keyof z.output<E["query"]>]?: z.output<E["query"]>[K] }
  : never;
/** The headers the endpoint needs, as sent. */
export type HeadersOf<E extends Endpoint> = E extends { headers: z.ZodType } ? z.input<E["headers"]> : never;
/** The JSON body as sent (before the route's schema trims and defaults it). */
export type BodyOf<E extends Endpoint> = E extends { body: z.ZodType } ? z.input<E["body"]> : never;

/** The path with its parameters filled in, each escaped. */
export function pathOf(endpoint: Endpoint, params?: Record<string, string | number>) {
  return endpoint.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${endpoint.operationId} needs the parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** The path with its parameters filled in and the query (fields left undefined are left out). */
export function urlOf(
  endpoint: Endpoint,
  input: { params?: Record<string, string | number>; query?: Record<string, unknown> } = {},
) {
  const query = Object.entries(input.query ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join("&");
  return `${pathOf(endpoint, input.params)}${query ? `?${query}` : ""}`;
}
