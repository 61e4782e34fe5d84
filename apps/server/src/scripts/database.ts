import { openDatabase, type Database } from "../db/client.ts";
import { loadEnv } from "../env.ts";

/**
 * Runs a command-line script's work on the configured database, migrated, and closes it after.
 * `unhurried`: no statement timeout, for work that reads or writes every row.
 */
export async function withDatabase<T>(
  work: (db: Database) => Promise<T>,
  options: { unhurried?: boolean } = {},
) {
  const env = loadEnv();
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    ...(options.unhurried ? { statementTimeoutMs: 0 } : {}),
  });
  try {
    await database.migrate();
    return await work(database.db);
  } finally {
    await database.close();
  }
}
