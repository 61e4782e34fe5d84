import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client.ts";

/**
 * Creating an in-memory PGlite runs initdb (about 2 s); starting one from a snapshot takes a
 * fifth of that. The server suite opens dozens, so the run makes one migrated cluster here and
 * every test database starts from it (and still migrates, finding nothing to do).
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide("migratedPgliteSnapshot", null);
    return;
  }
  const folder = await mkdtemp(path.join(tmpdir(), "taskmint-test-snapshot-"));
  const file = path.join(folder, "migrated.tar");
  const handle = await openDatabase({ dataDir: null });
  try {
    await handle.migrate();
    if (handle.driver.kind !== "pglite") throw new Error("expected the embedded database");
    const snapshot = await handle.driver.client.dumpDataDir("none");
    await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
  } finally {
    await handle.close();
  }
  project.provide("migratedPgliteSnapshot", file);
  return () => rm(folder, { recursive: true, force: true });
}
