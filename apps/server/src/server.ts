import { pino } from "pino";
import { buildApp, type App } from "./app.ts";
import { openDatabase, type DbHandle } from "./db/client.ts";
import { EnvError, loadEnv, type Env } from "./env.ts";
import { resolveAuthSecret } from "./lib/auth-secret.ts";
import { repeat, startJobs } from "./jobs/runner.ts";
import { refreshStaleStatistics } from "./db/statistics.ts";
import { prepareData } from "./startup.ts";

const JOB_INTERVAL_MS = 60_000;
/** The planner's statistics follow a growing table within seconds (db/statistics.ts). */
const STATISTICS_INTERVAL_MS = 1_000;

/** Something started beside the app that must stop before the database closes. */
export interface Companion {
  close(): void | Promise<void>;
}

/**
 * Starts TaskMint as `npm start` runs it: environment, database and migrations, first-start
 * data, the app, its jobs, and a clean shutdown on SIGINT/SIGTERM. `companions` start once
 * the app is built (the benchmark adds its reference route this way; production adds none).
 */
export async function runServer(
  companions: (context: { env: Env; database: DbHandle; app: App }) => Promise<Companion[]> = async () => [],
): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    log: pino({ level: env.LOG_LEVEL }),
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  await database.migrate();
  const report = await prepareData(database.db, env, database.kind);
  const app = await buildApp({ env, database, authSecret: await resolveAuthSecret(env) });
  const jobs = startJobs({
    // A first reputation refresh on a large database takes longer than a request may.
    db: database.unhurried,
    log: app.log,
    clock: app.clock,
    intervalMs: JOB_INTERVAL_MS,
    onTasksChanged: () => app.publicTaskPages.changed(),
  });
  const statistics = repeat(async () => {
    try {
      await refreshStaleStatistics(database.unhurried);
    } catch (error) {
      app.log.error({ err: error }, "refreshing the planner's statistics failed; retrying on the next tick");
    }
  }, STATISTICS_INTERVAL_MS);
  const started = await companions({ env, database, app });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    await jobs.stop();
    await statistics.stop();
    for (const companion of started) await companion.close();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: env.PORT, host: env.HOST });
  const where = database.kind === "pglite" ? `embedded PGlite in ${env.DATA_DIR}` : "PostgreSQL";
  console.log(`\nTaskMint is running on ${env.PUBLIC_URL} (${where})`);
  if (report.newAccounts.length > 0) {
    console.log("Accounts created on this first start (keep these):");
    for (const account of report.newAccounts) {
      console.log(`  ${account.role.padEnd(6)} ${account.email}  password: ${account.password}`);
    }
  }
}
