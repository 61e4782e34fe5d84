import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../lib/db-errors.ts";
import { openTestDatabase } from "../test/harness.ts";
import type { DbHandle } from "./client.ts";
import { refreshStaleStatistics } from "./statistics.ts";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
  await refreshStaleStatistics(handle.db); // whatever the migrations left
});
afterAll(() => handle.close());

const addUploads = (from: number, count: number) =>
  handle.db.execute(sql`insert into uploads (key, content_type, size, bytes)
    select 'statistics-' || n, 'image/png', 200, decode(repeat('ab', 200), 'hex')
    from generate_series(${from}::int, ${from + count - 1}::int) as n`);

const plannerRows = async () =>
  rowsOf<{ rows: number }>(
    await handle.db.execute(sql`select reltuples::int as rows from pg_class where relname = 'uploads'`),
  )[0]!.rows;

const pages = async () =>
  rowsOf<{ now: number; analyzed: number }>(
    await handle.db
      .execute(sql`select (pg_relation_size(oid) / current_setting('block_size')::int)::int as now,
      relpages as analyzed from pg_class where relname = 'uploads'`),
  )[0]!;

describe("refreshStaleStatistics", () => {
  it("analyzes a table that grew by more than a tenth and four pages, and only that one", async () => {
    await addUploads(0, 2000);
    expect(await refreshStaleStatistics(handle.db)).toEqual(["uploads"]);
    expect(await plannerRows()).toBe(2000);
    // Nothing grew since: nothing to do.
    expect(await refreshStaleStatistics(handle.db)).toEqual([]);
  });

  it("leaves a table that grew by less, and analyzes it once it passes the mark", async () => {
    const { analyzed } = await pages();
    const limit = analyzed * 1.1 + 4;
    // Just inside: grow by rows until one more page would pass the mark.
    let next = 2000;
    while ((await pages()).now + 1 <= limit) {
      await addUploads(next, 10);
      next += 10;
    }
    expect((await pages()).now).toBeLessThanOrEqual(limit);
    expect(await refreshStaleStatistics(handle.db)).toEqual([]);
    expect(await plannerRows()).toBe(2000);
    // Just outside.
    while ((await pages()).now <= limit) {
      await addUploads(next, 10);
      next += 10;
    }
    expect(await refreshStaleStatistics(handle.db)).toEqual(["uploads"]);
    expect(await plannerRows()).toBe(next);
  });

  it.runIf(process.env.DATABASE_URL)(
    "runs named prepared statements on their generic plan (PostgreSQL)",
    async () => {
      const [row] = rowsOf<{ plan_cache_mode: string }>(await handle.db.execute(sql`show plan_cache_mode`));
      expect(row!.plan_cache_mode).toBe("force_generic_plan");
    },
  );
});
