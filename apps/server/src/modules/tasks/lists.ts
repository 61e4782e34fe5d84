// The task lists: the public browser and the worker's list (keyset pages, capped counts,
// prepared first pages), the buyer's own tasks and the admin's. How they narrow and order is
// search.ts.
import { and, desc, eq, isNull, notExists, notInArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import {
  isoDate,
  type LargePage,
  type LargePageQuery,
  type Page,
  type PageQuery,
  type PublicTaskQuery,
  type Task,
  type TaskSearchPage,
  type TaskSort,
  type WorkerTaskQuery,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { reservations, submissions, tasks } from "../../db/schema/index.ts";
import { preparedStatement } from "../../lib/prepared.ts";
import {
  afterCursor,
  cappedCount,
  cappedTotal,
  castCursorValue,
  countUpTo,
  decodeCursor,
  encodeCursor,
  largePage,
} from "../../lib/keyset.ts";
import { liveReservationOf, tasksReservedBy } from "../reservations/service.ts";
import { visibilityValues, visibleToWorkerSql, workerVisibility } from "../trust/service.ts";
import type { CommonSearches } from "./common-searches.ts";
import type { FirstPageCache } from "./first-page-cache.ts";
import { keysetPage, offsetPage } from "../../lib/paging.ts";
import { isFiltered, narrowedBySearch, orderBy, TASK_ORDERS, takeable } from "./search.ts";
import { selectTasks, taskFor, toTask, type TaskAudience, type TaskRow } from "./views.ts";

/**
 * The public browser's unfiltered SQL for one order, its first page or the page after a cursor.
 * Placeholders: `today`, `limit`, and after a cursor its `value` and `id`. Prepared once per
 * connection (see below).
 */
export function publicTasksQuery(db: Database, sort: TaskSort, afterCursor: boolean) {
  const { key, kind, direction } = TASK_ORDERS[sort];
  let position: SQL | undefined;
  if (afterCursor) {
    const row = sql`(${key}, ${tasks.id})`;
    const cursor = sql`(${castCursorValue(kind, sql.placeholder("value"))}, ${sql.placeholder("id")})`;
    position = direction === "asc" ? sql`${row} > ${cursor}` : sql`${row} < ${cursor}`;
  }
  return selectTasks(db)
    .where(and(takeable(sql.placeholder("today")), position))
    .orderBy(...orderBy(sort))
    .limit(sql.placeholder("limit"));
}

/** The hottest read: a named prepared statement, so PostgreSQL plans it once per connection, not per request. */
function publicPageStatement(db: Database, sort: TaskSort, afterCursor: boolean) {
  const name = `public_tasks_${sort}_${afterCursor ? "after" : "first"}`;
  return preparedStatement(db, name, () => publicTasksQuery(db, sort, afterCursor).prepare(name));
}

/** The capped count of every takeable task, whatever the order: prepared, like the pages. */
const publicCountStatement = (db: Database) =>
  preparedStatement(db, "public_tasks_count", () =>
    cappedCount(db, tasks, takeable(sql.placeholder("today"))).prepare("public_tasks_count"),
  );

/**
 * The public task browser as its JSON body: keyset pages in one of five orders, filtered by
 * words, category and least reward. Unfiltered first pages come from a short cache, serialized
 * once for all the requests it serves; visitors and signed-in users have pages of their own,
 * as only the latter see buyers' emails.
 */
export function listPublicTasksJson(
  db: Database,
  request: PublicPageRequest & { firstPages: FirstPageCache },
): Promise<string> {
  const { query, now, audience, firstPages } = request;
  const read = async () => JSON.stringify(await readPublicPage(db, request));
  if (query.cursor || isFiltered(query)) return read();
  return firstPages.get(`${audience}:${query.sort}:${query.limit}`, now, read);
}

interface PublicPageRequest {
  query: PublicTaskQuery;
  now: Date;
  audience: TaskAudience;
  commonSearches: CommonSearches;
}

async function readPublicPage(db: Database, request: PublicPageRequest): Promise<TaskSearchPage> {
  const { query, now, audience, commonSearches } = request;
  const { sort, limit } = query;
  const order = TASK_ORDERS[sort];
  const after = query.cursor ? decodeCursor(query.cursor, order.kind) : null;
  const { where, counted: known } = await narrowedBySearch(db, {
    base: takeable(isoDate(now)),
    filters: query,
    scope: "public",
    now,
    commonSearches,
  });
  // One row more than asked tells whether another page follows.
  const [rows, counted] = await Promise.all([
    isFiltered(query)
      ? selectTasks(db)
          .where(
            and(
              where,
              after ? afterCursor(order.key, tasks.id, after, order.kind, order.direction) : undefined,
            ),
          )
          .orderBy(...orderBy(sort))
          .limit(limit + 1)
      : publicPageStatement(db, sort, after !== null).execute({
          today: isoDate(now),
          limit: limit + 1,
          ...after,
        }),
    known ??
      (isFiltered(query)
        ? countUpTo(db, tasks, where, orderBy(sort))
        : publicCountStatement(db)
            .execute({ today: isoDate(now) })
            .then(([row]) => cappedTotal(row?.count ?? 0))),
  ]);
  const items = rows.slice(0, limit).map((row) => taskFor(toTask(row), audience));
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    items,
    next_cursor: last ? encodeCursor({ value: order.valueOf(last), id: last.id }) : null,
    total_estimate: counted.total,
    total_capped: counted.total_capped,
  };
}

/**
 * Which tasks a worker's list holds (rules R3, R21, R23): takeable, not yet submitted to, not
 * reserved by them (those are listed with their reservations), and visible to them; from values,
 * or from a prepared statement's placeholders.
 */
function workerListSql(
  db: Database,
  worker: { today: string | Placeholder; workerId: string | Placeholder; visible: SQL | undefined },
  exclusion: "per task" | "hashed" = "per task",
) {
  // "per task" (NOT EXISTS) probes the worker's submission and reservation for each task, which
  // suits a page: it stops after limit + 1 rows. "hashed" (NOT IN) reads the worker's own rows
  // once into a hash, which suits the capped count: it walks up to a thousand tasks, and as a
  // prepared statement's generic plan the probes were most of the mixed load's database time
  // (docs/performance.md). Both task_id columns are NOT NULL, so the two mean the same.
  const notTaken =
    exclusion === "hashed"
      ? and(
          notInArray(
            tasks.id,
            db
              .select({ id: submissions.taskId })
              .from(submissions)
              .where(eq(submissions.workerId, worker.workerId)),
          ),
          notInArray(tasks.id, tasksReservedBy(db, worker.workerId)),
        )
      : and(
          notExists(
            db
              .select({ one: sql`1` })
              .from(submissions)
              .where(and(eq(submissions.taskId, tasks.id), eq(submissions.workerId, worker.workerId))),
          ),
          notExists(
            db
              .select({ one: sql`1` })
              .from(reservations)
              .where(liveReservationOf(tasks.id, worker.workerId)),
          ),
        );
  return and(takeable(worker.today), notTaken, worker.visible);
}

/**
 * Tasks this worker can still submit to (rule R3) and may see (rules R21, R23: qualified, not
 * blocked, buyer not hidden), filtered and ordered like the public browser. The first page of
 * each order, unfiltered (what the dashboard opens with), is two prepared statements: planning
 * them took PostgreSQL more than running them (docs/performance.md).
 */
export async function listWorkerTasks(
  db: Database,
  request: { workerId: string; query: WorkerTaskQuery; now: Date; commonSearches: CommonSearches },
): Promise<LargePage<Task> & { total_estimate: number }> {
  const { workerId, query, now, commonSearches } = request;
  const order = TASK_ORDERS[query.sort];
  const visibility = await workerVisibility(db, workerId);
  const cursorOf = (row: TaskRow) => ({ value: order.valueOf(row), id: row.id });
  if (!isFiltered(query) && !query.cursor && query.page === 1) {
    const { rows, count } = workerFirstPageStatements(db, query.sort);
    const values = { today: isoDate(now), workerId, ...visibility };
    const [found, [counted]] = await Promise.all([
      rows.execute({ ...values, limit: query.limit + 1 }),
      count.execute(values),
    ]);
    const page = largePage(found, query, cappedTotal(counted?.count ?? 0), cursorOf, toTask);
    return { ...page, total_estimate: page.total };
  }
  const { where, counted } = await narrowedBySearch(db, {
    base: workerListSql(db, {
      today: isoDate(now),
      workerId,
      visible: visibleToWorkerSql(visibilityValues(visibility)),
    }),
    filters: query,
    scope: `worker:${workerId}`,
    now,
    commonSearches,
  });
  const page = await keysetPage(db, {
    page: query,
    table: tasks,
    where,
    counted,
    order: { key: order.key, id: tasks.id, kind: order.kind, direction: order.direction },
    rows: (where, sorted) =>
      selectTasks(db)
        .where(where)
        .orderBy(...sorted),
    cursorOf,
    toItem: toTask,
  });
  return { ...page, total_estimate: page.total };
}

/** The worker list's first page in one order, and its capped count, as prepared statements. */
function workerFirstPageStatements(db: Database, sort: TaskSort) {
  const where = (exclusion?: "hashed") =>
    workerListSql(
      db,
      {
        today: sql.placeholder("today"),
        workerId: sql.placeholder("workerId"),
        visible: visibleToWorkerSql({
          approvalRate: sql.placeholder("approvalRate"),
          levels: sql.placeholder("levels"),
          excluded: sql.placeholder("excluded"),
        }),
      },
      exclusion,
    );
  const rowsName = `worker_tasks_${sort}_first`;
  const countName = "worker_tasks_count";
  return {
    rows: preparedStatement(db, rowsName, () =>
      selectTasks(db)
        .where(where())
        .orderBy(...orderBy(sort))
        .limit(sql.placeholder("limit"))
        .prepare(rowsName),
    ),
    count: preparedStatement(db, countName, () => cappedCount(db, tasks, where("hashed")).prepare(countName)),
  };
}

/** Every live task, newest first, for admins. */
export function listAllTasks(db: Database, page: LargePageQuery): Promise<LargePage<Task>> {
  return keysetPage(db, {
    page,
    table: tasks,
    where: isNull(tasks.deletedAt),
    order: { key: tasks.createdAt, id: tasks.id, kind: "timestamp", direction: "desc" },
    rows: (where, sorted) =>
      selectTasks(db)
        .where(where)
        .orderBy(...sorted),
    cursorOf: (row) => ({ value: row.createdAt.toISOString(), id: row.id }),
    toItem: toTask,
  });
}

/** The buyer's own live tasks, latest completion date first. */
export async function listBuyerTasks(db: Database, buyerId: string, page: PageQuery): Promise<Page<Task>> {
  const where = and(eq(tasks.buyerId, buyerId), isNull(tasks.deletedAt));
  return offsetPage(db, {
    page,
    table: tasks,
    where,
    rows: selectTasks(db)
      .where(where)
      .orderBy(desc(tasks.completionDate), desc(tasks.createdAt), desc(tasks.id)),
    toItem: toTask,
  });
}
