/**
 * Writes the API description (/api/openapi.json) to a file without a server listening: builds
 * the app on an in-memory PGlite and asks it for its document. `npm run openapi -- out.json`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { pino } from "pino";
import { buildApp } from "../app.ts";
import { openDatabase } from "../db/client.ts";
import { loadEnv } from "../env.ts";

/** The document the app serves at /api/openapi.json, built from a throwaway in-memory app. */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const log = pino({ level: "silent" });
  const database = await openDatabase({ databaseUrl: undefined, dataDir: null, log });
  await database.migrate();
  const env = loadEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: tmpdir() });
  const app = await buildApp({
    env,
    database,
    authSecret: "openapi-openapi-openapi-openapi!",
    webDist: null,
  });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = process.argv[2];
  const text = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
  if (out) {
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, text);
  } else process.stdout.write(text);
}
