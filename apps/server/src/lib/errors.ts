import type { ErrorCode } from "@taskmint/shared";

/** A failure the client caused or may act on; mapped to an HTTP answer in plugins/errors.ts. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);
export const insufficientCoins = () => new AppError("INSUFFICIENT_COINS", "Insufficient coins");
export const databaseUnavailable = () =>
  new AppError("DATABASE_UNAVAILABLE", "The database is unavailable, please try again in a moment");
