/** The SQLSTATE of a database error, possibly wrapped by drizzle, or undefined. */
export function sqlStateOf(error: unknown): string | undefined {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** True when a database error is a unique-constraint violation. */
export const isUniqueViolation = (error: unknown): boolean => sqlStateOf(error) === "23505";

/** The rows of a raw statement's result: node-postgres and PGlite both answer `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

// SQLSTATEs of a server that went away or will not take us now: admin_shutdown, crash_shutdown,
// cannot_connect_now, and query_canceled (the app cancels nothing itself: a statement ran past
// its statement_timeout, the database is too slow just now).
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "57014"]);
const UNAVAILABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
// node-postgres reports a lost, never-made or silent connection by message only.
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "Query read timeout",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
];

/**
 * True when an error (possibly wrapped by drizzle or the auth library) means the database
 * could not be reached or the connection dropped: the request may succeed if retried.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === "string" &&
      (code.startsWith("08") || UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code))
    )
      return true;
    if (UNAVAILABLE_MESSAGES.some((message) => current instanceof Error && current.message.includes(message)))
      return true;
    // Node answers a refused connection to a name with several addresses as an AggregateError.
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
