import type { FastifyInstance } from "fastify";
import { AppError } from "../lib/errors.ts";

// Dot segments, doubled or encoded slashes, backslashes and NUL: spellings that a URL parser
// further along may fold into another path than the one the router matched (and limited).
const NON_CANONICAL = /\/\.{1,2}(?:\/|$)|\/\/|%2e|%2f|%5c|\\|%00/i;

/** Refuses any request whose path is not spelled the one canonical way, before a route or limit sees it. */
export function refuseNonCanonicalPaths(app: FastifyInstance) {
  app.addHook("onRequest", async (request) => {
    const raw = request.raw.url ?? "/";
    const path = raw.split("?", 1)[0] ?? "/";
    if (NON_CANONICAL.test(path))
      throw new AppError(
        "VALIDATION",
        "This address is not spelled canonically: remove dot segments, doubled slashes and encoded slashes or dots",
      );
  });
}
