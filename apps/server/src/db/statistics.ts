import { sql } from "drizzle-orm";
import { rowsOf } from "../lib/db-errors.ts";
import type { Database } from "./client.ts";

/**
 * Analyzes each of our tables that has grown by more than a tenth (and a few pages) since the
 * planner's statistics of it were taken, or was never analyzed, and returns their names.
 *
 * Why: the hot reads are prepared statements, and a prepared statement's generic plan is kept
 * until its tables' statistics change. PGlite has no autovacuum, so without this a table there
 * is never analyzed and a plan made while it was small (a new install) is kept for good; on
 * PostgreSQL autovacuum analyzes too, but only after a minute's nap. ANALYZE makes PostgreSQL
 * plan those statements again (docs/performance.md, decision 030).
 */
export async function refreshStaleStatistics(db: Database): Promise<string[]> {
  const stale = rowsOf<{ name: string }>(
    await db.execute(sql`select c.relname as name from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
        and pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.1 + 4`),
  ).map((row) => row.name);
  // SKIP_LOCKED: another server process analyzing the same table already does the work.
  for (const name of stale) await db.execute(sql`analyze (skip_locked) ${sql.identifier(name)}`);
  return stale;
}
