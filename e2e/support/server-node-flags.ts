import { readFileSync } from "node:fs";

/**
 * The Node options `npm start` runs the server with (decision 022), read from the start script
 * itself so that every launcher of the compiled server (tests, Lighthouse, the benchmark) runs
 * it as users do.
 */
export const SERVER_NODE_FLAGS: string[] = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    scripts: { start: string };
  }
).scripts.start
  .split(/\s+/)
  .filter((word) => word.startsWith("--"));

/** The environment `npm start` gives the server on Linux (scripts/start.mjs): glibc malloc's settings. */
export const SERVER_ENVIRONMENT: Record<string, string> = JSON.parse(
  readFileSync(new URL("../../scripts/server-environment.json", import.meta.url), "utf8"),
) as Record<string, string>;
