import type { FastifyInstance } from "fastify";
import { AppError } from "./errors.ts";

/** Deeper than any body of the API; 100,000-deep arrays would overflow the stack of whatever walks them. */
export const MAX_JSON_DEPTH = 32;

/** How deep a parsed JSON value nests, counted without recursion so no input can overflow the stack. */
export function exceedsDepth(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth >= limit) return true;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

/** Fastify's own JSON parser (prototype-poisoning checks included), refusing bodies nested past MAX_JSON_DEPTH. */
export function limitJsonDepth(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body: string, done) => {
    void parseJson(request, body, (error: Error | null, value?: unknown) => {
      if (error) return done(error);
      if (exceedsDepth(value, MAX_JSON_DEPTH))
        return done(new AppError("VALIDATION", `JSON bodies nest at most ${MAX_JSON_DEPTH} levels deep`));
      return done(null, value);
    });
  });
}
