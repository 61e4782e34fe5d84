import { apiErrorSchema } from "@taskmint/shared/schemas";

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

/** Calls the API with the session cookie; JSON in (or FormData) and JSON out; throws ApiError. */
export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const isForm = init.body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      credentials: "include",
      headers: {
        ...init.headers,
        ...(init.body === undefined || isForm ? {} : { "content-type": "application/json" }),
      },
      body:
        init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
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
    const body = apiErrorSchema.safeParse(parsed);
    const error = body.success ? body.data.error : undefined;
    throw new ApiError(
      response.status,
      error?.code ?? "HTTP_ERROR",
      error?.message ?? `Request failed (${response.status})`,
      fieldDetails(error?.details),
    );
  }
  return parsed as T;
}

export const errorMessage = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;
