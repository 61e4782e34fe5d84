import type { ErrorCode } from "@taskmint/shared";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isDatabaseUnavailable } from "../lib/db-errors.ts";
import { AppError, databaseUnavailable } from "../lib/errors.ts";

export const statusOf: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  INSUFFICIENT_COINS: 409,
  ALREADY_SUBMITTED: 409,
  NO_SLOTS_LEFT: 409,
  ALREADY_DECIDED: 409,
  TASK_CLOSED: 409,
  RESERVATION_LIMIT: 409,
  NO_RESERVATION: 409,
  NOT_QUALIFIED: 403,
  TWO_FACTOR_REQUIRED: 403,
  EMAIL_NOT_VERIFIED: 403,
  APPEAL_CLOSED: 409,
  IDEMPOTENCY_MISMATCH: 409,
  RISK_CONFIRMATION_REQUIRED: 409,
  LIMIT_REACHED: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
};

/** How long a client should wait before retrying while the database is away, in seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** The code for an HTTP status that did not come from an AppError (framework and plugin errors). */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "CONFLICT";
    case 413:
      return "TOO_LARGE";
    case 415:
      return "UNSUPPORTED_MEDIA_TYPE";
    case 429:
      return "RATE_LIMITED";
    default:
      return status >= 500 ? "INTERNAL" : "VALIDATION";
  }
}

export function sendError(reply: FastifyReply, code: ErrorCode, message: string, details?: unknown) {
  if (code === "DATABASE_UNAVAILABLE") void reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
  return reply
    .status(statusOf[code])
    .send({ error: { code, message, ...(details === undefined ? {} : { details }) } });
}

/** Field path -> first message, the shape of VALIDATION details. */
export function fieldMessages(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const details: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join(".") || "body";
    details[field] ??= issue.message;
  }
  return details;
}

/** The one place where errors become the API's JSON error format. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return sendError(reply, error.code, error.message, error.details);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = fieldMessages(
        error.validation.map((issue) => ({
          path: issue.instancePath.split("/").filter(Boolean),
          message: issue.message ?? "Invalid value",
        })),
      );
      return sendError(reply, "VALIDATION", "Some fields are invalid", details);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      const unavailable = databaseUnavailable();
      return sendError(reply, unavailable.code, unavailable.message);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = codeForStatus(status);
      const message =
        code === "RATE_LIMITED" ? "Too many attempts, please try again in a minute" : error.message;
      return sendError(reply, code, message);
    }
    request.log.error({ err: error }, "request failed");
    return sendError(reply, "INTERNAL", "Something went wrong on our side");
  });
}
