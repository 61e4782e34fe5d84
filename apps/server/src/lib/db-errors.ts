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
