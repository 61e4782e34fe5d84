import { and, eq, exists, isNull, lte, sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import {
  DAY_MS,
  BUYER_REPUTATION_DAYS,
  qualificationProblem,
  workerLevels,
  workerReputationOf,
  type BlockedWorker,
  type HiddenBuyer,
  type Page,
  type PageQuery,
  type WorkerReputation,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import {
  buyerBlocks,
  buyerReputations,
  hiddenBuyers,
  submissions,
  tasks,
  users,
  workerReputations,
} from "../../db/schema/index.ts";
import { rowsOf } from "../../lib/db-errors.ts";
import { preparedStatement } from "../../lib/prepared.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import {
  blockedWorkers,
  hiddenBuyerList,
  keepAway,
  keptAwayPage,
  letBack,
  type KeptAwayEntry,
} from "./kept-away.ts";

// Rules R21 and R23: reputation, qualifications, blocks and hidden buyers.

/** Rule R21: the worker's approval rate, decided count and level, as the database keeps them. */
export async function workerReputation(db: Database, workerId: string): Promise<WorkerReputation> {
  const [row] = await db
    .select({ approved: workerReputations.approved, rejected: workerReputations.rejected })
    .from(workerReputations)
    .where(eq(workerReputations.workerId, workerId));
  return workerReputationOf(row ?? { approved: 0, rejected: 0 });
}

/** GET /api/workers/:id/reputation: any live user's reputation as a worker. */
export async function reputationOfUser(db: Database, userId: string): Promise<WorkerReputation> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!user) throw notFound("Worker");
  return workerReputation(db, userId);
}

/** A buyer's block of the worker (the buyer's id, or the tasks table's buyer column in a subquery). */
const blockedBy = (buyerId: AnyColumn | string, workerId: string | Placeholder) =>
  and(eq(buyerBlocks.buyerId, buyerId), eq(buyerBlocks.workerId, workerId));

/**
 * The tasks a worker may see in their list (rules R21, R23): their reputation meets the task's
 * minimums, its buyer has not blocked them and they have not hidden its buyer. The buyers to
 * leave out are read first and passed as one array (usually empty): as anti-joins in the list's
 * query they tripled its planning time at a million tasks.
 */
export async function workerVisibility(db: Database, workerId: string): Promise<WorkerVisibility> {
  // One round trip, prepared: the worker's counts and the buyers they are kept from or chose not to see.
  const statement = preparedStatement(db, "worker_visibility", () => {
    const worker = sql.placeholder("workerId");
    return db
      .select({
        approved: workerReputations.approved,
        rejected: workerReputations.rejected,
        excluded: sql<string[]>`array(
          select ${buyerBlocks.buyerId} from ${buyerBlocks} where ${buyerBlocks.workerId} = ${worker}
          union select ${hiddenBuyers.buyerId} from ${hiddenBuyers} where ${hiddenBuyers.workerId} = ${worker})`,
      })
      .from(users)
      .leftJoin(workerReputations, eq(workerReputations.workerId, users.id))
      .where(eq(users.id, worker))
      .prepare("worker_visibility");
  });
  const [row] = await statement.execute({ workerId });
  const reputation = workerReputationOf({ approved: row?.approved ?? 0, rejected: row?.rejected ?? 0 });
  return {
    approvalRate: reputation.approval_rate ?? 0,
    levels: workerLevels.slice(0, workerLevels.indexOf(reputation.level) + 1),
    excluded: row?.excluded ?? [],
  };
}

export interface WorkerVisibility {
  approvalRate: number;
  levels: string[];
  excluded: string[];
}

/**
 * The tasks `workerVisibility` lets a worker see, as a condition on `tasks`: from its values, or
 * from placeholders of a prepared statement (`rate`, `levels`, `excluded`). An empty `excluded`
 * leaves out no one.
 */
export const visibleToWorkerSql = (visibility: { [Key in keyof WorkerVisibility]: SQL | Placeholder }) =>
  and(
    sql`${tasks.minApprovalRate} <= ${visibility.approvalRate}`,
    sql`${tasks.minLevel} = any(${visibility.levels}::text[])`,
    sql`${tasks.buyerId} <> all(${visibility.excluded}::text[])`,
  );

/** A worker's visibility as values for visibleToWorkerSql. */
export const visibilityValues = (visibility: WorkerVisibility) => ({
  approvalRate: sql`${visibility.approvalRate}`,
  levels: sql`${sql.param(visibility.levels)}`,
  excluded: sql`${sql.param(visibility.excluded)}`,
});

/**
 * Rules R21 and R23 on reserve and submit: NOT_QUALIFIED with the reason when the worker is
 * blocked by the task's buyer or does not meet its minimums, else null. One round trip. A missing
 * task passes (the caller answers 404).
 */
export async function whyNotQualified(
  db: Database,
  request: { workerId: string; taskId: string },
): Promise<AppError | null> {
  // Prepared: every submit runs it, and planning it took PostgreSQL longer than running it.
  const statement = preparedStatement(db, "qualification", () =>
    db
      .select({
        minApprovalRate: tasks.minApprovalRate,
        minLevel: tasks.minLevel,
        blocked: exists(
          db
            .select({ one: sql`1` })
            .from(buyerBlocks)
            .where(blockedBy(tasks.buyerId, sql.placeholder("workerId"))),
        ),
        approved: workerReputations.approved,
        rejected: workerReputations.rejected,
      })
      .from(tasks)
      .leftJoin(workerReputations, eq(workerReputations.workerId, sql.placeholder("workerId")))
      .where(eq(tasks.id, sql.placeholder("taskId")))
      .prepare("qualification"),
  );
  const [task] = await statement.execute(request);
  if (!task) return null;
  if (task.blocked)
    return new AppError("NOT_QUALIFIED", "The buyer of this task does not accept work from you");
  const reputation = workerReputationOf({ approved: task.approved ?? 0, rejected: task.rejected ?? 0 });
  const problem = qualificationProblem(reputation, {
    min_approval_rate: task.minApprovalRate,
    min_level: task.minLevel,
  });
  return problem ? new AppError("NOT_QUALIFIED", problem) : null;
}

/** whyNotQualified, thrown. */
export async function assertQualified(
  db: Database,
  request: { workerId: string; taskId: string },
): Promise<void> {
  const problem = await whyNotQualified(db, request);
  if (problem) throw problem;
}

const toBlockedWorker = (entry: KeptAwayEntry): BlockedWorker => ({
  worker_id: entry.userId,
  worker_name: entry.userName,
  note: entry.note,
  created_at: entry.createdAt.toISOString(),
});

const toHiddenBuyer = (entry: KeptAwayEntry): HiddenBuyer => ({
  buyer_id: entry.userId,
  buyer_name: entry.userName,
  created_at: entry.createdAt.toISOString(),
});

/** Rule R23: the buyer blocks a worker (again: the note is replaced). Pending work stays reviewable. */
export const blockWorker = async (
  db: Database,
  block: { buyerId: string; workerId: string; note?: string; now: Date },
) =>
  toBlockedWorker(
    await keepAway(db, blockedWorkers, {
      ownerId: block.buyerId,
      otherId: block.workerId,
      note: block.note,
      now: block.now,
    }),
  );

export const unblockWorker = async (db: Database, unblock: { buyerId: string; workerId: string }) =>
  toBlockedWorker(await letBack(db, blockedWorkers, { ownerId: unblock.buyerId, otherId: unblock.workerId }));

export const listBlocks = (db: Database, buyerId: string, page: PageQuery): Promise<Page<BlockedWorker>> =>
  keptAwayPage(db, blockedWorkers, { ownerId: buyerId, page, toItem: toBlockedWorker });

/** Rule R23: the worker stops seeing a buyer's tasks in their lists (again: no change). */
export const hideBuyer = async (db: Database, hide: { workerId: string; buyerId: string; now: Date }) =>
  toHiddenBuyer(
    await keepAway(db, hiddenBuyerList, { ownerId: hide.workerId, otherId: hide.buyerId, now: hide.now }),
  );

export const unhideBuyer = async (db: Database, unhide: { workerId: string; buyerId: string }) =>
  toHiddenBuyer(await letBack(db, hiddenBuyerList, { ownerId: unhide.workerId, otherId: unhide.buyerId }));

export const listHiddenBuyers = (
  db: Database,
  workerId: string,
  page: PageQuery,
): Promise<Page<HiddenBuyer>> =>
  keptAwayPage(db, hiddenBuyerList, { ownerId: workerId, page, toItem: toHiddenBuyer });

/** How often a buyer's reputation is recomputed even without new decisions, as old ones leave the window. */
const BUYER_REPUTATION_MAX_AGE_MS = DAY_MS;

/**
 * Rule R21: recomputes the reputation of every buyer who decided a submission since the last
 * refresh, or whose figures are a day old (decisions leave the 90-day window), in one statement;
 * answers how many buyers it refreshed. Run by the jobs runner; safe to run in several processes.
 */
export async function refreshBuyerReputations(db: Database, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - BUYER_REPUTATION_DAYS * DAY_MS);
  const stale = new Date(now.getTime() - BUYER_REPUTATION_MAX_AGE_MS);
  const [last] = await db
    .select({
      at: sql<Date | null>`max(${buyerReputations.refreshedAt})`.mapWith(buyerReputations.refreshedAt),
    })
    .from(buyerReputations);
  // A few minutes back: a decision whose transaction committed after the last refresh began is not missed.
  const since = new Date((last?.at ?? new Date(0)).getTime() - 5 * 60 * 1000);
  const due = db
    .selectDistinct({ buyerId: submissions.buyerId })
    .from(submissions)
    .where(sql`${submissions.decidedAt} is not null and ${submissions.decidedAt} >= ${since.toISOString()}`)
    .union(
      db
        .select({ buyerId: buyerReputations.buyerId })
        .from(buyerReputations)
        .where(lte(buyerReputations.refreshedAt, stale)),
    );
  const refreshed = await db.execute(sql`
    insert into ${buyerReputations} (buyer_id, approved, rejected, median_review_seconds, refreshed_at)
    select due.buyer_id,
      count(*) filter (where s.status = 'approved'),
      count(*) filter (where s.status = 'rejected'),
      percentile_cont(0.5) within group (order by extract(epoch from s.decided_at - s.created_at)),
      ${now.toISOString()}::timestamptz
    from (${due}) due
    left join ${submissions} s
      on s.buyer_id = due.buyer_id and s.decided_at is not null and s.decided_at > ${windowStart.toISOString()}::timestamptz
    group by due.buyer_id
    on conflict (buyer_id) do update set
      approved = excluded.approved,
      rejected = excluded.rejected,
      median_review_seconds = excluded.median_review_seconds,
      refreshed_at = excluded.refreshed_at
    returning buyer_id`);
  return rowsOf(refreshed).length;
}

/** Workers' reputations that differ from a recount of their decided submissions (for the tests' checks). */
export async function checkWorkerReputations(db: Database): Promise<string[]> {
  const counted = db
    .select({
      workerId: submissions.workerId,
      approved: sql<number>`cast(count(*) filter (where ${submissions.status} = 'approved') as int)`.as(
        "counted_approved",
      ),
      rejected: sql<number>`cast(count(*) filter (where ${submissions.status} = 'rejected') as int)`.as(
        "counted_rejected",
      ),
    })
    .from(submissions)
    .where(sql`${submissions.status} <> 'pending'`)
    .groupBy(submissions.workerId)
    .as("counted");
  const drifted = await db
    .select({
      workerId: sql<string>`coalesce(${counted.workerId}, ${workerReputations.workerId})`,
      kept: sql<string>`${workerReputations.approved} || '/' || ${workerReputations.rejected}`,
      recount: sql<string>`${counted.approved} || '/' || ${counted.rejected}`,
    })
    .from(counted)
    .fullJoin(workerReputations, eq(workerReputations.workerId, counted.workerId))
    .where(
      sql`coalesce(${counted.approved}, 0) <> coalesce(${workerReputations.approved}, 0) or coalesce(${counted.rejected}, 0) <> coalesce(${workerReputations.rejected}, 0)`,
    );
  return drifted.map(
    (row) =>
      `worker ${row.workerId} reputation keeps ${row.kept ?? "nothing"} but recounts ${row.recount ?? "0/0"}`,
  );
}
