import {
  urlOf,
  type AnswerOf,
  type BodyOf,
  type Endpoint,
  type HeadersOf,
  type ParamsOf,
  type QueryOf,
} from "@taskmint/shared";
import { apiErrorSchema } from "@taskmint/shared/schemas";
import type { z } from "zod";

/** An error answer of the API: `{"error": {"code", "message", "details"}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

function fieldDetails(details: unknown): Record<string, string> | undefined {
  if (!details || typeof details !== "object") return undefined;
  const fields = Object.entries(details).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string",
  );
  return fields.length > 0 ? Object.fromEntries(fields) : undefined;
}

/** What a call of the endpoint sends: its path's parameters, its query, its body (a form for a form). */
export type CallInput<E extends Endpoint> = ([ParamsOf<E>] extends [never]
  ? unknown
  : { params: ParamsOf<E> }) &
  ([QueryOf<E>] extends [never] ? unknown : { query?: QueryOf<E> }) &
  (E extends { form: { json: true; fields: infer Fields extends z.ZodType } }
    ? { body: FormData | z.input<Fields> }
    : E extends { form: object }
      ? { body: FormData }
      : [BodyOf<E>] extends [never]
        ? unknown
        : { body: BodyOf<E> }) &
  ([HeadersOf<E>] extends [never]
    ? unknown
    : // Headers that are all optional (an Idempotency-Key, decision 036) may be left out.
      object extends HeadersOf<E>
      ? { headers?: HeadersOf<E> }
      : { headers: HeadersOf<E> });

type Sent = {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
};

/** The answer did not have the shape its declaration promises: this page and the server disagree. */
const unexpectedAnswer = (status: number) =>
  new ApiError(
    status,
    "UNEXPECTED_ANSWER",
    "The server answered in a way this page does not understand. Reload the page and try again.",
  );

/**
 * Calls a declared endpoint (decision 032) with the session cookie: JSON in (or a form), the
 * answer checked against the endpoint's schema; an error answer throws ApiError.
 */
export async function call<E extends Endpoint>(
  endpoint: E,
  ...[input]: object extends CallInput<E> ? [CallInput<E>?] : [CallInput<E>]
): Promise<AnswerOf<E>> {
  const { params, query, body, headers } = (input ?? {}) as Sent;
  const isForm = body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(urlOf(endpoint, { params, query }), {
      method: endpoint.method,
      credentials: "include",
      headers: {
        ...headers,
        ...(body === undefined || isForm ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "NETWORK", "Cannot reach the server. Check your connection and try again.");
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const answer = apiErrorSchema.safeParse(parsed);
    const error = answer.success ? answer.data.error : undefined;
    throw new ApiError(
      response.status,
      error?.code ?? "HTTP_ERROR",
      error?.message ?? `Request failed (${response.status})`,
      fieldDetails(error?.details),
    );
  }
  const schema = endpoint.response?.[response.status as keyof NonNullable<Endpoint["response"]>];
  if (!schema) return parsed as AnswerOf<E>;
  const checked = schema.safeParse(response.status === 204 ? null : parsed);
  if (!checked.success) {
    console.error(`${endpoint.operationId} answered an unexpected shape`, checked.error.issues);
    throw unexpectedAnswer(response.status);
  }
  return checked.data as AnswerOf<E>;
}

export const errorMessage = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;
