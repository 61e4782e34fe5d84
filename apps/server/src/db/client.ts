import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
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
import { pino, type Logger } from "pino";
import { DEFAULT_STATEMENT_TIMEOUT_MS } from "../env.ts";
import { withPreparedStatements } from "./pglite-statements.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
/** A database or a transaction: services take either and never care which. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DbHandle {
  /** For requests: on PostgreSQL a statement may run DATABASE_STATEMENT_TIMEOUT_MS. */
  db: Database;
  /**
   * The same database for work that is long by design and never a request's: the background
   * jobs (a first reputation refresh reads every decided submission) and an admin's ledger check
   * (every transfer). On PostgreSQL, connections of its own, whose statements may run 5 minutes.
   */
  unhurried: Database;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  /**
   * LISTENs on each channel of `handlers`; every NOTIFY from any process on this database
   * calls the channel's handler. A lost connection is made again by itself, then `onResumed`
   * runs: what was announced meanwhile was missed. Answers the unsubscribe.
   */
  listen(
    handlers: Record<string, (payload: string) => void>,
    onResumed: () => void,
  ): Promise<() => Promise<void>>;
  /** The driver under drizzle, for tools that measure it bare (the benchmark); the app never uses it. */
  driver: { kind: "pglite"; client: PGlite } | { kind: "postgres"; pool: pg.Pool };
  close(): Promise<void>;
}

/** Where the database reports lost connections. */
export type DatabaseLog = Pick<Logger, "warn" | "info">;

/** How long a request waits for a connection (a new one, or a free one of the pool) before failing. */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long the driver waits for an answer beyond the statement timeout: PostgreSQL cancels a slow
 * statement itself and answers with an error; no answer at all by then means the network went silent.
 */
const SILENCE_MARGIN_MS = 1_000;
/** The statement timeout of the long work (DbHandle.unhurried), and its connections. */
const LONG_STATEMENT_TIMEOUT_MS = 5 * 60_000;
const LONG_WORK_CONNECTIONS = 2;
/** An idle connection is probed (TCP keep-alive) after this long, so a peer that vanished is noticed. */
const KEEP_ALIVE_DELAY_MS = 10_000;
/** The LISTEN connection is made again after 100 ms, 200 ms, ... at most every 5 s. */
const LISTEN_RETRY_FIRST_MS = 100;
const LISTEN_RETRY_MAX_MS = 5_000;

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
// Any constant works; it only has to be the same in every server process.
const MIGRATION_LOCK_ID = 727_001;

/**
 * PostgreSQL when a URL is given, else embedded PGlite in `dataDir`, or in memory when dataDir is
 * null: a new cluster, or one started from `pgliteSnapshot` (a `dumpDataDir` tarball).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string | null;
  log?: DatabaseLog;
  pgliteSnapshot?: Blob;
  /**
   * PostgreSQL only: the longest a statement may run (DATABASE_STATEMENT_TIMEOUT_MS); 0 for
   * none, for the long jobs of the command-line scripts (seeding, the ledger check).
   */
  statementTimeoutMs?: number;
}): Promise<DbHandle> {
  if (options.databaseUrl)
    return openPostgres(
      options.databaseUrl,
      options.log ?? pino({ level: "warn" }),
      options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    );
  return openPglite(options.dataDir, options.pgliteSnapshot);
}

/**
 * The timeouts of a connection (issue 31): PostgreSQL cancels a statement that runs longer than
 * `statementTimeoutMs` and answers with an error; the driver gives up on a query that got no
 * answer at all a little later (a network gone silent: no reset, nothing comes back), and
 * `cutWhenSilent` then drops the connection. TCP keep-alive notices a vanished peer on a connection
 * that is idle (the LISTEN connection, an idle pooled one).
 */
function connectionSettings(databaseUrl: string, statementTimeoutMs: number): pg.ClientConfig {
  return {
    connectionString: databaseUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEP_ALIVE_DELAY_MS,
    // Our named prepared statements always run their generic plan: PostgreSQL otherwise plans
    // each call again whenever a generic plan's estimate looks dearer than a custom one's, which
    // on the hot reads cost more than running them. The plans stay current because
    // refreshStaleStatistics (db/statistics.ts) analyzes growing tables (decision 030).
    options: "-c plan_cache_mode=force_generic_plan",
    ...(statementTimeoutMs > 0 && {
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + SILENCE_MARGIN_MS,
    }),
  };
}

/** The error of a query the driver gave up waiting for (pg's query_timeout). */
const isUnanswered = (error: unknown): error is Error =>
  error instanceof Error && error.message === "Query read timeout";

/**
 * The driver fails a query it gave up on but keeps waiting for its answer on that connection:
 * given back to the pool, every later query there would queue behind it. A pooled connection
 * whose query went unanswered is cut instead, as a lost one (its 'error' event follows).
 */
function cutWhenSilent(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const answer = query(...args);
    // Callback queries are the pool's own (pool.query), which drops the connection on any error.
    if (answer instanceof Promise)
      answer.catch((error: unknown) => {
        if (isUnanswered(error)) client.connection.stream.destroy(error);
      });
    return answer;
  }) as typeof client.query;
}

/** A pool whose lost or silent connections are dropped, never lent again. */
function pooled(settings: pg.PoolConfig, log: DatabaseLog): pg.Pool {
  const pool = new pg.Pool(settings);
  const lent = new Set<pg.PoolClient>();
  pool.on("acquire", (client) => lent.add(client));
  pool.on("release", (_error, client) => lent.delete(client));
  // A connection lost while a query runs fails that query; lost while idle or between the
  // statements of a transaction it is only an 'error' event, which unheard ends the process.
  pool.on("connect", (client) => {
    cutWhenSilent(client);
    client.on("error", (error) => {
      log.warn({ err: error }, "database connection lost");
      // drizzle sends BEGIN before its try/finally: a connection lost then is never given back,
      // and such leaks would shrink the pool to nothing. Give it back (to be dropped) now; the
      // holder's own release, if it comes, has nothing left to do.
      if (lent.has(client)) {
        client.release(error);
        client.release = () => undefined;
      }
    });
  });
  // The pool passes an idle connection's loss on as its own event; the listener above logged it.
  pool.on("error", () => undefined);
  return pool;
}

function openPostgres(databaseUrl: string, log: DatabaseLog, statementTimeoutMs: number): DbHandle {
  const pool = pooled({ ...connectionSettings(databaseUrl, statementTimeoutMs), max: 10 }, log);
  const longWorkPool = pooled(
    {
      ...connectionSettings(
        databaseUrl,
        statementTimeoutMs > 0 ? Math.max(statementTimeoutMs, LONG_STATEMENT_TIMEOUT_MS) : 0,
      ),
      max: LONG_WORK_CONNECTIONS,
    },
    log,
  );
  return {
    db: drizzlePg({ client: pool, schema }),
    unhurried: drizzlePg({ client: longWorkPool, schema }),
    kind: "postgres",
    async migrate() {
      // A connection of its own, without the timeouts: a migration may take its time, and
      // several server processes may start at once: one migrates, the others wait.
      const client = new pg.Client(connectionSettings(databaseUrl, 0));
      // Lost mid-migration, the query under way fails; unheard, the event would end the process first.
      client.on("error", (error) => log.warn({ err: error }, "database connection lost while migrating"));
      await client.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
        await client.end();
      }
    },
    listen: (handlers, onResumed) =>
      listenReconnecting(connectionSettings(databaseUrl, statementTimeoutMs), log, handlers, onResumed),
    driver: { kind: "postgres", pool },
    close: async () => {
      await Promise.all([pool.end(), longWorkPool.end()]);
    },
  };
}

/** LISTEN needs a connection of its own that stays open: made again, with backoff, whenever it drops. */
async function listenReconnecting(
  settings: pg.ClientConfig,
  log: DatabaseLog,
  handlers: Record<string, (payload: string) => void>,
  onResumed: () => void,
): Promise<() => Promise<void>> {
  let current: pg.Client | null = null;
  let stopped = false;
  let retryMs = LISTEN_RETRY_FIRST_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async () => {
    const client = new pg.Client(settings);
    client.on("notification", (message) => {
      if (message.payload) handlers[message.channel]?.(message.payload);
    });
    // A drop shows as 'error' (not always) and then 'end'; only the live connection's first counts.
    client.on("error", (error) => lost(client, error));
    client.on("end", () => lost(client));
    try {
      await client.connect();
      for (const channel of Object.keys(handlers))
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (stopped) await client.end();
    else current = client;
  };

  const reconnectLater = () => {
    retryTimer = setTimeout(() => {
      connect().then(
        () => {
          retryMs = LISTEN_RETRY_FIRST_MS;
          if (stopped) return;
          log.info("LISTEN connection made again");
          onResumed();
        },
        (error: unknown) => {
          retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
          log.warn({ err: error, retryMs }, "LISTEN connection still down");
          if (!stopped) reconnectLater();
        },
      );
    }, retryMs);
    retryTimer.unref();
  };

  const lost = (client: pg.Client, error?: Error) => {
    if (client !== current || stopped) return;
    current = null;
    log.warn({ err: error }, "LISTEN connection lost; making it again");
    void client.end().catch(() => undefined);
    reconnectLater();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    await current?.end();
    current = null;
  };
}

/**
 * The embedded database's memory (issue 20, decision 022): PostgreSQL's defaults are a database
 * server's (128 MB of shared buffers, 64 MB per maintenance task) and PGlite keeps every page it
 * ever touched. An app server's embedded database, holding one connection, needs a fraction.
 */
export const PGLITE_SETTINGS = [
  "shared_buffers=16MB",
  "maintenance_work_mem=16MB",
  "temp_buffers=2MB",
  "wal_buffers=1MB",
];
const pgliteOptions = {
  startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])],
};

/**
 * Creates a new embedded database and applies the migrations in a child process that then ends.
 * Creating one runs PostgreSQL's initdb, and the first statements compile PGlite's WebAssembly:
 * in the process that did it, that left 500 MB (WebAssembly memory never shrinks) and, in a
 * worker thread, still 170 MB on Node 24 (the compiler's freed memory stays with the allocator).
 * A process gives all of it back. It runs on V8's baseline compiler only: for one short job,
 * compiling for speed costs more than it saves.
 */
async function createClusterAside(pgliteDir: string) {
  const script = `
    const [dir, options, migrationsFolder, pglite, drizzle, migrator] = JSON.parse(process.argv[1]);
    const [{ PGlite }, { drizzle: drizzlePglite }, { migrate }] = await Promise.all(
      [pglite, drizzle, migrator].map((module) => import(module)),
    );
    const client = new PGlite(dir, options);
    await client.waitReady;
    await migrate(drizzlePglite({ client }), { migrationsFolder });
    await client.close();`;
  const settings = [
    pgliteDir,
    pgliteOptions,
    migrationsFolder,
    import.meta.resolve("@electric-sql/pglite"),
    import.meta.resolve("drizzle-orm/pglite"),
    import.meta.resolve("drizzle-orm/pglite/migrator"),
  ];
  const child = spawn(
    process.execPath,
    ["--liftoff-only", "--input-type=module", "--eval", script, JSON.stringify(settings)],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  if (code !== 0) throw new Error(`creating the database failed (${signal ?? `exit ${code}`}): ${errors}`);
}

async function openPglite(dataDir: string | null, snapshot: Blob | undefined): Promise<DbHandle> {
  let client: PGlite;
  if (dataDir) {
    const pgliteDir = path.resolve(dataDir, "pglite");
    // PGlite does not create the parent folders of its data directory.
    await mkdir(path.dirname(pgliteDir), { recursive: true });
    if (!existsSync(path.join(pgliteDir, "PG_VERSION"))) await createClusterAside(pgliteDir);
    client = new PGlite(pgliteDir, pgliteOptions);
  } else {
    client = new PGlite({ ...pgliteOptions, loadDataDir: snapshot });
  }
  await client.waitReady;
  const db = drizzlePglite({ client: withPreparedStatements(client), schema });
  return {
    db,
    // One connection in the process, and no timeouts.
    unhurried: db,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    // In the same process as the app, this connection cannot drop: onResumed never runs.
    async listen(handlers) {
      const unsubscribes = await Promise.all(
        Object.entries(handlers).map(([channel, handler]) => client.listen(channel, handler)),
      );
      return async () => {
        await Promise.all(unsubscribes.map((unsubscribe) => unsubscribe()));
      };
    },
    driver: { kind: "pglite", client },
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
