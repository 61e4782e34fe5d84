// How the task browsers narrow and order: takeable tasks, the five orders, the words,
// category and least-reward filters, and the counts of common searches.
import {
  and,
  asc,
  desc,
  eq,
  gte,
  isNull,
  sql,
  type AnyColumn,
  type Placeholder,
  type SQL,
} from "drizzle-orm";
import { LARGE_LIST_COUNT_CAP, type TaskFilters, type TaskSort } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { tasks } from "../../db/schema/index.ts";
import { type CursorKind } from "../../lib/keyset.ts";
import type { CommonSearches } from "./common-searches.ts";
import { type TaskRow } from "./views.ts";

/** Open, live, not expired, with a free slot: what a worker may still take. */
export const takeable = (today: string | Placeholder) =>
  // Literals, not parameters: a prepared statement's generic plan can then use the partial indexes.
  and(
    sql`${tasks.status} = 'open' and ${tasks.requiredWorkers} > 0`,
    isNull(tasks.deletedAt),
    gte(tasks.completionDate, today),
  );

/** Each order of the task browsers: its key (each has a partial index over takeable tasks), then the id. */
export const TASK_ORDERS: Record<
  TaskSort,
  { key: AnyColumn; kind: CursorKind; direction: "asc" | "desc"; valueOf: (row: TaskRow) => string | number }
> = {
  newest: {
    key: tasks.createdAt,
    kind: "timestamp",
    direction: "desc",
    valueOf: (row) => row.createdAt.toISOString(),
  },
  price_desc: {
    key: tasks.payableAmount,
    kind: "integer",
    direction: "desc",
    valueOf: (row) => row.payableAmount,
  },
  price_asc: {
    key: tasks.payableAmount,
    kind: "integer",
    direction: "asc",
    valueOf: (row) => row.payableAmount,
  },
  pay_per_hour: { key: tasks.payRate, kind: "integer", direction: "desc", valueOf: (row) => row.payRate },
  ending_soon: {
    key: tasks.completionDate,
    kind: "date",
    direction: "asc",
    valueOf: (row) => row.completionDate,
  },
};

export const orderBy = (sort: TaskSort) => {
  const { key, direction } = TASK_ORDERS[sort];
  return direction === "asc" ? [asc(key), asc(tasks.id)] : [desc(key), desc(tasks.id)];
};

/**
 * Minus signs in a row, or with only what the web-search parser skips between them (spaces,
 * `!&|()<`). The parser stacks a NOT for each and fails past 32 ("tsquery stack too small");
 * a run is read as one minus, "without the next word", which is what the searcher meant.
 */
const MINUS_RUN = /-(?:[\s!&|()<]*-)+/g;

/** A search's words as the full-text query the browsers match (English stemming, web-search syntax). */
export const searchQuerySql = (words: string) =>
  sql`websearch_to_tsquery('english', ${words.replace(MINUS_RUN, "-")})`;

/** The filters' SQL: words (full-text, English stemming, web-search syntax), category, least reward. */
export function filtersSql(filters: TaskFilters): SQL | undefined {
  return and(
    filters.q ? sql`${tasks.searchDocument} @@ ${searchQuerySql(filters.q)}` : undefined,
    filters.category ? eq(tasks.category, filters.category) : undefined,
    filters.min_reward ? gte(tasks.payableAmount, filters.min_reward) : undefined,
  );
}

export const isFiltered = (filters: TaskFilters) =>
  Boolean(filters.q || filters.category || filters.min_reward);

/** What a list pages through: its condition, and its capped count when that is already known. */
export interface Narrowed {
  where: SQL | undefined;
  counted?: { total: number; total_capped: boolean };
}

/**
 * The condition of a filtered list (`base`: which tasks it may show; then the filters). A search
 * first reads up to the cap's worth of matching ids, which counts its matches as well. When there
 * are no more than the cap (a rare word), the list is narrowed to those ids, read through the
 * full-text index: otherwise PostgreSQL answers `ORDER BY key LIMIT n` by walking the order's
 * index and testing every row against the words, all open tasks when few match (seconds at a
 * million). A search matching more than the cap is common, and that walk finds a page within a
 * few hundred rows, and the search is remembered as common for a few seconds (common-searches.ts)
 * so its next pages skip the probe. The narrowed list keeps `base` (a task filled since is not
 * shown) and drops the words the ids were found by.
 */
export async function narrowedBySearch(
  db: Database,
  list: {
    base: SQL | undefined;
    filters: TaskFilters;
    scope: string;
    now: Date;
    commonSearches: CommonSearches;
  },
): Promise<Narrowed> {
  const { base, filters, now, commonSearches } = list;
  const where = and(base, filtersSql(filters));
  if (!filters.q) return { where };
  const common = { where, counted: { total: LARGE_LIST_COUNT_CAP, total_capped: true } };
  const key = JSON.stringify([list.scope, filters.q, filters.category, filters.min_reward]);
  if (commonSearches.isCommon(key, now)) return common;
  const matches = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(where)
    .limit(LARGE_LIST_COUNT_CAP + 1);
  if (matches.length > LARGE_LIST_COUNT_CAP) {
    commonSearches.remember(key, now);
    return common;
  }
  // One array parameter, not a thousand: binding them cost more than the query's own work.
  const ids = matches.map((match) => match.id);
  return {
    where: and(base, sql`${tasks.id} = any(${sql.param(ids)}::text[])`),
    counted: { total: ids.length, total_capped: false },
  };
}
