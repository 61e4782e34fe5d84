import { and, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import {
  isCalendarDate,
  LARGE_LIST_COUNT_CAP,
  unstorableCharacters,
  type LargePage,
  type LargePageQuery,
} from "@taskmint/shared";
import type { Database } from "../db/client.ts";
import { AppError } from "./errors.ts";

// Keyset paging: a page starts after the (key, id) of the last row before it, so a page deep
// in a list of millions costs what the first one does.

export interface Cursor {
  value: number | string;
  id: string;
}

export type CursorKind = "timestamp" | "integer" | "date" | "text";

export const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString("base64url");

const INT4_MAX = 2_147_483_647;
/** Ids are text keys (UUIDs, or the bulk seed's own): letters, digits and dashes. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// A cursor comes back from the client, so every part is checked as the database will read it:
// an int4 in range, an id of the key's characters, a timestamp exactly as the server wrote it.
const valueFits: Record<CursorKind, (value: unknown) => boolean> = {
  // PostgreSQL has no year 0: the calendar starts at 0001.
  timestamp: (value) =>
    typeof value === "string" &&
    ISO_TIMESTAMP.test(value) &&
    !Number.isNaN(Date.parse(value)) &&
    new Date(value).toISOString() === value &&
    value >= "0001",
  integer: (value) => Number.isInteger(value) && Math.abs(value as number) <= INT4_MAX,
  date: (value) => typeof value === "string" && isCalendarDate(value) && value >= "0001",
  text: (value) => typeof value === "string" && value.length <= 500 && unstorableCharacters(value) === null,
};

export function decodeCursor(raw: string, kind: CursorKind): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString()) as Partial<Cursor>;
    if (valueFits[kind](parsed.value) && typeof parsed.id === "string" && ID.test(parsed.id)) {
      return { value: parsed.value as number | string, id: parsed.id };
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError("VALIDATION", "Invalid cursor", { cursor: "Invalid cursor" });
}

/** A cursor's value as the database type of its key. */
export function castCursorValue(kind: CursorKind, value: unknown): SQL {
  switch (kind) {
    case "timestamp":
      return sql`${value}::timestamptz`;
    case "integer":
      return sql`${value}::int`;
    case "date":
      return sql`${value}::date`;
    case "text":
      return sql`${value}`;
  }
}

/** Rows after the cursor in (key, id) order, ascending or descending. */
export function afterCursor(
  key: AnyColumn,
  id: AnyColumn,
  cursor: Cursor,
  kind: CursorKind,
  direction: "asc" | "desc",
): SQL {
  const value = castCursorValue(kind, cursor.value);
  return direction === "asc"
    ? sql`(${key}, ${id}) > (${value}, ${cursor.id})`
    : sql`(${key}, ${id}) < (${value}, ${cursor.id})`;
}

/**
 * Counts the rows of `table` matching `where`, but never more than the cap plus one. In the
 * list's own order, so the count walks the list's index instead of scanning the table.
 */
export async function countUpTo(
  db: Database,
  table: PgTable,
  where: SQL | undefined,
  order: SQL[],
): Promise<{ total: number; total_capped: boolean }> {
  const [row] = await cappedCount(db, table, where, order);
  return cappedTotal(row?.count ?? 0);
}

/**
 * countUpTo's query, to run or to prepare (its `count` is at most the cap plus one). Without an
 * order the scan may stop at any cap + 1 rows, whatever plan a prepared statement was given.
 */
export function cappedCount(db: Database, table: PgTable, where: SQL | undefined, order: SQL[] = []) {
  const capped = db
    .select({ one: sql`1` })
    .from(table)
    .where(and(where))
    .orderBy(...order)
    .limit(LARGE_LIST_COUNT_CAP + 1)
    .as("capped");
  return db.select({ count: sql<number>`cast(count(*) as int)` }).from(capped);
}

/** A capped count as lists answer it. */
export const cappedTotal = (count: number) => ({
  total: Math.min(count, LARGE_LIST_COUNT_CAP),
  total_capped: count > LARGE_LIST_COUNT_CAP,
});

/** Where a page number without a cursor starts: only within the counted rows, so the offset stays small. */
export function offsetOf(page: LargePageQuery): number {
  if (page.cursor) return 0;
  const offset = (page.page - 1) * page.limit;
  if (offset >= LARGE_LIST_COUNT_CAP) {
    const message = `Pages past the first ${LARGE_LIST_COUNT_CAP} rows need the cursor of the page before`;
    throw new AppError("VALIDATION", message, { page: message });
  }
  return offset;
}

/** The answer from up to limit + 1 rows: the extra row only says that another page follows. */
export function largePage<Row, Item>(
  rows: Row[],
  page: LargePageQuery,
  counted: { total: number; total_capped: boolean },
  cursorOf: (row: Row) => Cursor,
  toItem: (row: Row) => Item,
): LargePage<Item> {
  const last = rows.length > page.limit ? rows[page.limit - 1] : undefined;
  return {
    items: rows.slice(0, page.limit).map(toItem),
    page: page.page,
    limit: page.limit,
    ...counted,
    next_cursor: last ? encodeCursor(cursorOf(last)) : null,
  };
}
