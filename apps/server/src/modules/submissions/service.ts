import { randomUUID } from "node:crypto";
import { and, desc, eq, gte, isNull, lte, notExists, sql } from "drizzle-orm";
import {
  isoDate,
  paths,
  type Page,
  type PageQuery,
  type Submission,
  type SubmissionStatus,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { submissions, tasks } from "../../db/schema/index.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { preparedStatement } from "../../lib/prepared.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import {
  asLedgerError,
  escrowKeySql,
  escrowOf,
  transfer,
  transferSql,
  walletKeySql,
  walletOf,
} from "../ledger/service.ts";
import { notify, notifySql } from "../notifications/service.ts";
import { countAll, decideSubmissions, selectSubmissions, toSubmission } from "../tasks/views.ts";
import { publicListChanged } from "../tasks/first-page-cache.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

async function getSubmission(db: Database, submissionId: string): Promise<Submission> {
  const [row] = await selectSubmissions(db).where(eq(submissions.id, submissionId));
  if (!row) throw notFound("Submission");
  return toSubmission(row);
}

const alreadySubmitted = () =>
  new AppError("ALREADY_SUBMITTED", "You have already submitted work for this task");

/** Rule R3: takes a slot with one conditional update and records the submission, or changes nothing. */
export async function submitWork(
  db: Database,
  workerId: string,
  taskId: string,
  details: string,
  options: { now: Date; autoApproveDays: number },
): Promise<Submission> {
  const { now, autoApproveDays } = options;
  const submitted = await db.transaction(async (tx) => {
    const [task] = await tx
      .update(tasks)
      .set({ requiredWorkers: sql`${tasks.requiredWorkers} - 1` })
      .where(
        and(
          eq(tasks.id, taskId),
          eq(tasks.status, "open"),
          isNull(tasks.deletedAt),
          gte(tasks.completionDate, isoDate(now)),
          sql`${tasks.requiredWorkers} > 0`,
          // A repeat by the same worker takes no slot (nor a lock on the task); the unique index still decides races.
          notExists(
            tx
              .select({ one: sql`1` })
              .from(submissions)
              .where(and(eq(submissions.taskId, taskId), eq(submissions.workerId, workerId))),
          ),
        ),
      )
      .returning({ buyerId: tasks.buyerId });
    if (!task) throw await whyNotTakeable(tx, taskId, workerId, now);
    if (task.buyerId === workerId) throw new AppError("FORBIDDEN", "You cannot submit work to your own task");

    const id = randomUUID();
    try {
      await tx.insert(submissions).values({
        id,
        taskId,
        workerId,
        buyerId: task.buyerId,
        details,
        createdAt: now,
        autoApproveAt: new Date(now.getTime() + autoApproveDays * DAY_MS),
      });
    } catch (error) {
      // The unique (task, worker) index: this worker has a submission here already; the rollback returns the slot.
      if (isUniqueViolation(error)) throw alreadySubmitted();
      throw error;
    }
    const submission = await getSubmission(tx, id);
    await notify(
      tx,
      task.buyerId,
      `${submission.worker_name} submitted work for "${submission.task_title}"`,
      paths.dashboard.buyerHome,
    );
    return submission;
  });
  publicListChanged();
  return submitted;
}

async function whyNotTakeable(db: Database, taskId: string, workerId: string, now: Date): Promise<AppError> {
  const [existing] = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.taskId, taskId), eq(submissions.workerId, workerId)));
  if (existing) return alreadySubmitted();
  const [task] = await db.select().from(tasks).where(eq(tasks.id, taskId));
  if (!task || task.deletedAt) return notFound("Task");
  if (task.status === "closed") return new AppError("TASK_CLOSED", "This task is closed");
  if (task.completionDate < isoDate(now))
    return new AppError("TASK_CLOSED", "This task's completion date has passed");
  return new AppError("NO_SLOTS_LEFT", "All slots of this task are taken");
}

/** The reviewer: the task's buyer, or the server itself for rule R6. */
export type Reviewer = { buyerId: string } | "auto-approval";

/** The submission, while it is pending and, unless the server decides it, the reviewer is its task's buyer. */
const decidable = (reviewer: Reviewer, submissionId: string) =>
  and(
    eq(submissions.id, submissionId),
    eq(submissions.status, "pending"),
    reviewer === "auto-approval" ? undefined : eq(submissions.buyerId, reviewer.buyerId),
  );

/**
 * Decides a pending submission in one conditional update (which also locks it): only when
 * it is still pending and, unless the server decides it, the reviewer is its task's buyer.
 */
async function decide(
  db: Database,
  reviewer: Reviewer,
  submissionId: string,
  decision: { status: "approved" | "rejected"; decidedAt: Date; reason?: string },
) {
  const [decided] = await db
    .update(submissions)
    .set(decision)
    .where(decidable(reviewer, submissionId))
    .returning({ taskId: submissions.taskId, workerId: submissions.workerId });
  if (!decided) throw await whyNotDecided(db, reviewer, submissionId);
  return decided;
}

async function whyNotDecided(db: Database, reviewer: Reviewer, submissionId: string): Promise<Error> {
  const [row] = await db
    .select({ buyerId: submissions.buyerId, status: submissions.status })
    .from(submissions)
    .where(eq(submissions.id, submissionId));
  if (!row) return notFound("Submission");
  if (reviewer !== "auto-approval" && row.buyerId !== reviewer.buyerId) {
    return new AppError("FORBIDDEN", "This submission is not for one of your tasks");
  }
  if (row.status !== "pending")
    return new AppError("ALREADY_DECIDED", `This submission was already ${row.status}`);
  return new Error(`submission ${submissionId} is pending yet could not be decided`);
}

/** The worker's notification on approval (spec): amount, buyer's name, task title. */
const EARNED_MESSAGE = "You have earned %s coins from %s for completing %s";

/**
 * Rule R4: pays the worker from the task's escrow, once. One statement decides the
 * submission, pays and notifies the worker (all or nothing), and reads the result back.
 */
export async function approveSubmission(
  db: Database,
  reviewer: Reviewer,
  submissionId: string,
  now: Date,
): Promise<Submission> {
  const byServer = reviewer === "auto-approval";
  const [approved] = await approvalStatement(db, byServer)
    .execute({ id: submissionId, buyerId: byServer ? null : reviewer.buyerId, now: now.toISOString() })
    .catch((error: unknown) => {
      throw asLedgerError(error);
    });
  if (!approved) throw await whyNotDecided(db, reviewer, submissionId);
  return toSubmission(approved);
}

/** The approval, prepared once per database: by the task's buyer, or by the server (R6). */
function approvalStatement(db: Database, byServer: boolean) {
  const name = byServer ? "auto_approve_submission" : "approve_submission";
  const where = and(
    eq(submissions.id, sql.placeholder("id")),
    eq(submissions.status, "pending"),
    byServer ? undefined : eq(submissions.buyerId, sql.placeholder("buyerId")),
  );
  const set = { status: "approved" as const, decidedAt: sql`${sql.placeholder("now")}::timestamptz` };
  return preparedStatement(db, name, () =>
    decideSubmissions(db, { set, where }, ({ decided, buyer }) => ({
      paid: transferSql({
        from: escrowKeySql(decided.taskId),
        to: walletKeySql(decided.workerId),
        amount: tasks.payableAmount,
        idempotencyKey: sql`${"approve:"} || ${decided.id}`,
      }).as("paid"),
      notified: notifySql(
        decided.workerId,
        sql`format(${EARNED_MESSAGE}::text, ${tasks.payableAmount}, ${buyer.name}, ${tasks.title})`,
        paths.dashboard.mySubmissions,
      ).as("notified"),
    })).prepare(name),
  );
}

/** Rule R5: the slot returns to an open task; on a closed task its coins return to the buyer. */
export async function rejectSubmission(
  db: Database,
  reviewer: { buyerId: string },
  submissionId: string,
  reason: string,
  now: Date,
): Promise<Submission> {
  await db.transaction(async (tx) => {
    const [target] = await tx
      .select({ taskId: submissions.taskId })
      .from(submissions)
      .where(eq(submissions.id, submissionId));
    if (!target) throw notFound("Submission");
    // Task first, then submission: the order submitWork takes them in.
    const [task] = await tx.select().from(tasks).where(eq(tasks.id, target.taskId)).for("update");
    if (!task) throw notFound("Task");
    const { workerId } = await decide(tx, reviewer, submissionId, {
      status: "rejected",
      reason,
      decidedAt: now,
    });
    if (task.status === "open") {
      await tx
        .update(tasks)
        .set({ requiredWorkers: sql`${tasks.requiredWorkers} + 1` })
        .where(eq(tasks.id, task.id));
    } else {
      await transfer(tx, {
        from: escrowOf(task.id),
        to: walletOf(task.buyerId),
        amount: task.payableAmount,
        idempotencyKey: `reject-refund:${submissionId}`,
      });
    }
    await notify(
      tx,
      workerId,
      `Your submission for "${task.title}" was rejected: ${reason}`,
      paths.dashboard.mySubmissions,
    );
  });
  publicListChanged();
  return getSubmission(db, submissionId);
}

/** Rule R6: approves submissions pending past their auto-approval time; returns how many. */
export async function autoApproveDue(db: Database, now: Date, batch = 200): Promise<number> {
  const due = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.status, "pending"), lte(submissions.autoApproveAt, now)))
    .limit(batch);
  let approved = 0;
  for (const { id } of due) {
    try {
      await approveSubmission(db, "auto-approval", id, now);
      approved += 1;
    } catch (error) {
      // Another server process, or the buyer, decided it first.
      if (!(error instanceof AppError && error.code === "ALREADY_DECIDED")) throw error;
    }
  }
  return approved;
}

async function pagedSubmissions(
  db: Database,
  owner: "workerId" | "buyerId",
  userId: string,
  page: PageQuery,
  status?: SubmissionStatus,
): Promise<Page<Submission>> {
  const where = and(eq(submissions[owner], userId), status ? eq(submissions.status, status) : undefined);
  const [rows, [counted]] = await Promise.all([
    selectSubmissions(db)
      .where(where)
      .orderBy(desc(submissions.createdAt), desc(submissions.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ total: countAll }).from(submissions).where(where),
  ]);
  return { items: rows.map(toSubmission), page: page.page, limit: page.limit, total: counted?.total ?? 0 };
}

export const listWorkerSubmissions = (
  db: Database,
  workerId: string,
  page: PageQuery,
  status?: SubmissionStatus,
) => pagedSubmissions(db, "workerId", workerId, page, status);

export const listBuyerSubmissions = (
  db: Database,
  buyerId: string,
  page: PageQuery,
  status?: SubmissionStatus,
) => pagedSubmissions(db, "buyerId", buyerId, page, status);
