import { and, asc, desc, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { LargePage, LargePageQuery, Page, PageQuery } from "@taskmint/shared";
import type { Database } from "../db/client.ts";
import {
  afterCursor,
  countUpTo,
  decodeCursor,
  largePage,
  offsetOf,
  type Cursor,
  type CursorKind,
} from "./keyset.ts";

// The two ways a list pages: by page number with an exact count (lists of one user's own
// rows), and by keyset with a capped count (lists that grow with the platform).

export const countAll = sql<number>`cast(count(*) as int)`;

/** A select already filtered and ordered, still open to a window. */
interface Windowed<Row> {
  limit(limit: number): { offset(offset: number): PromiseLike<Row[]> };
}

/** What a page by number counts: the rows of `table` matching `where`, or a caller's prepared count. */
type Counted = { table: PgTable; where: SQL | undefined } | { count: () => PromiseLike<{ total: number }[]> };

/** One page by number: the rows of `rows` (filtered, ordered) and the count of all that match. */
export async function offsetPage<Row, Item>(
  db: Database,
  list: { page: PageQuery; rows: Windowed<Row>; toItem: (row: Row) => Item } & Counted,
): Promise<Page<Item>> {
  const { page } = list;
  const [rows, [counted]] = await Promise.all([
    list.rows.limit(page.limit).offset((page.page - 1) * page.limit),
    "count" in list ? list.count() : db.select({ total: countAll }).from(list.table).where(list.where),
  ]);
  return { items: rows.map(list.toItem), page: page.page, limit: page.limit, total: counted?.total ?? 0 };
}

/** A table's rows as the API lists them: the select with its joins, and the mapping to the contract's shape. */
export interface ListView<Row, Item> {
  table: PgTable & { createdAt: AnyColumn; id: AnyColumn };
  select: (db: Database) => { where(where: SQL | undefined): { orderBy(...order: SQL[]): Windowed<Row> } };
  toItem: (row: Row) => Item;
}

/** One page by number, newest first by (created_at, id): the order of every history of one's own. */
export function newestFirstPage<Row, Item>(
  db: Database,
  view: ListView<Row, Item>,
  where: SQL | undefined,
  page: PageQuery,
): Promise<Page<Item>> {
  const { table, toItem } = view;
  const rows = view.select(db).where(where).orderBy(desc(table.createdAt), desc(table.id));
  return offsetPage(db, { page, table, where, rows, toItem });
}

/**
 * One keyset page in (key, id) order: the rows after the cursor (or at the page number, within
 * the counted rows), plus one that says whether another page follows, and the capped count.
 */
export async function keysetPage<Row, Item>(
  db: Database,
  list: {
    page: LargePageQuery;
    table: PgTable;
    where: SQL | undefined;
    /** The capped count, when the caller already knows it (a search counts its matches first). */
    counted?: { total: number; total_capped: boolean };
    order: { key: AnyColumn; id: AnyColumn; kind: CursorKind; direction: "asc" | "desc" };
    /** The select of the rows matching `where`, in `order`. */
    rows: (where: SQL | undefined, order: SQL[]) => Windowed<Row>;
    cursorOf: (row: Row) => Cursor;
    toItem: (row: Row) => Item;
  },
): Promise<LargePage<Item>> {
  const { page, where, order } = list;
  const after = page.cursor ? decodeCursor(page.cursor, order.kind) : null;
  const by = order.direction === "asc" ? asc : desc;
  const sorted = [by(order.key), by(order.id)];
  const [rows, counted] = await Promise.all([
    list
      .rows(
        and(where, after ? afterCursor(order.key, order.id, after, order.kind, order.direction) : undefined),
        sorted,
      )
      .limit(page.limit + 1)
      .offset(offsetOf(page)),
    list.counted ?? countUpTo(db, list.table, where, sorted),
  ]);
  return largePage(rows, page, counted, list.cursorOf, list.toItem);
}
