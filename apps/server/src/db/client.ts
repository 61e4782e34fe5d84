import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
/** A database or a transaction: services take either and never care which. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DbHandle {
  db: Database;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  /** LISTENs on a channel; every NOTIFY from any process on this database calls `onPayload`. Answers the unsubscribe. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Runs SQL straight on the driver, rows as arrays: only for the benchmark's reference route. */
  queryRows(text: string, params: unknown[], preparedName?: string): Promise<unknown[][]>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
// Any constant works; it only has to be the same in every server process.
const MIGRATION_LOCK_ID = 727_001;

/** PostgreSQL when a URL is given, else embedded PGlite in `dataDir` (or in memory when dataDir is null). */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string | null }): Promise<DbHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.dataDir);
}

function openPostgres(databaseUrl: string): DbHandle {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const db = drizzlePg({ client: pool, schema });
  return {
    db,
    kind: "postgres",
    async migrate() {
      // Several server processes may start at once: one migrates, the others wait.
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
        client.release();
      }
    },
    async listen(channel, onPayload) {
      // LISTEN needs a connection of its own that stays open.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      client.on("notification", (message) => {
        if (message.channel === channel && message.payload) onPayload(message.payload);
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return () => client.end();
    },
    async queryRows(text, params, preparedName) {
      return (await pool.query<unknown[]>({ name: preparedName, text, values: params, rowMode: "array" })).rows;
    },
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string | null): Promise<DbHandle> {
  let client: PGlite;
  if (dataDir) {
    const pgliteDir = path.resolve(dataDir, "pglite");
    // PGlite does not create the parent folders of its data directory.
    await mkdir(path.dirname(pgliteDir), { recursive: true });
    client = new PGlite(pgliteDir);
  } else {
    client = new PGlite();
  }
  await client.waitReady;
  const db = drizzlePglite({ client, schema });
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return unsubscribe;
    },
    async queryRows(text, params) {
      return (await client.query<unknown[]>(text, params, { rowMode: "array" })).rows;
    },
    close: () => client.close(),
  };
}

/** True when the database answers a trivial query. */
export async function databaseAnswers(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
