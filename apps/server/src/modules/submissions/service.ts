import { randomUUID } from "node:crypto";
import { and, desc, eq, gte, isNull, lte, sql } from "drizzle-orm";
import { isoDate, type Page, type PageQuery, type Submission, type SubmissionStatus } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { submissions, tasks, users } from "../../db/schema/index.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { escrowOf, transfer, walletOf } from "../ledger/service.ts";
import { notify } from "../notifications/service.ts";
import { countAll, selectSubmissions, toSubmission } from "../tasks/views.ts";
import { publicListChanged } from "../tasks/first-page-cache.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

async function getSubmission(db: Database, submissionId: string): Promise<Submission> {
  const [row] = await selectSubmissions(db).where(eq(submissions.id, submissionId));
  if (!row) throw notFound("Submission");
  return toSubmission(row);
}

const alreadySubmitted = () => new AppError("ALREADY_SUBMITTED", "You have already submitted work for this task");

/** Rule R3: takes a slot with one conditional update and records the submission, or changes nothing. */
export async function submitWork(
  db: Database,
  workerId: string,
  taskId: string,
  details: string,
  options: { now: Date; autoApproveDays: number },
): Promise<Submission> {
  const { now, autoApproveDays } = options;
  const id = randomUUID();
  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.taskId, taskId), eq(submissions.workerId, workerId)));
    if (existing) throw alreadySubmitted();

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
        ),
      )
      .returning({ buyerId: tasks.buyerId, title: tasks.title });
    if (!task) throw await whyNotTakeable(tx, taskId, now);
    if (task.buyerId === workerId) throw new AppError("FORBIDDEN", "You cannot submit work to your own task");

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
      // A parallel submission by the same worker won the unique index; our slot is given back by the rollback.
      if (isUniqueViolation(error)) throw alreadySubmitted();
      throw error;
    }
    const [worker] = await tx.select({ name: users.name }).from(users).where(eq(users.id, workerId));
    await notify(tx, task.buyerId, `${worker?.name ?? "A worker"} submitted work for "${task.title}"`, "/dashboard/BuyersHome");
  });
  publicListChanged();
  return getSubmission(db, id);
}

async function whyNotTakeable(db: Database, taskId: string, now: Date): Promise<AppError> {
  const [task] = await db.select().from(tasks).where(eq(tasks.id, taskId));
  if (!task || task.deletedAt) return notFound("Task");
  if (task.status === "closed") return new AppError("TASK_CLOSED", "This task is closed");
  if (task.completionDate < isoDate(now)) return new AppError("TASK_CLOSED", "This task's completion date has passed");
  return new AppError("NO_SLOTS_LEFT", "All slots of this task are taken");
}

/** The reviewer: the task's buyer, or the server itself for rule R6. */
export type Reviewer = { buyerId: string } | "auto-approval";

/** Locks a pending submission for review, checking that the reviewer may decide it. */
async function pendingForReview(db: Database, reviewer: Reviewer, submissionId: string) {
  const [row] = await db
    .select({ id: submissions.id, taskId: submissions.taskId, workerId: submissions.workerId, buyerId: submissions.buyerId, status: submissions.status })
    .from(submissions)
    .where(eq(submissions.id, submissionId))
    .for("update");
  if (!row) throw notFound("Submission");
  if (reviewer !== "auto-approval" && row.buyerId !== reviewer.buyerId) {
    throw new AppError("FORBIDDEN", "This submission is not for one of your tasks");
  }
  if (row.status !== "pending") throw new AppError("ALREADY_DECIDED", `This submission was already ${row.status}`);
  return row;
}

/** Rule R4: pays the worker from the task's escrow, once. */
export async function approveSubmission(db: Database, reviewer: Reviewer, submissionId: string, now: Date): Promise<Submission> {
  await db.transaction(async (tx) => {
    const submission = await pendingForReview(tx, reviewer, submissionId);
    const [task] = await tx
      .select({ payableAmount: tasks.payableAmount, title: tasks.title, buyerName: users.name })
      .from(tasks)
      .innerJoin(users, eq(users.id, tasks.buyerId))
      .where(eq(tasks.id, submission.taskId));
    if (!task) throw notFound("Task");
    await tx.update(submissions).set({ status: "approved", decidedAt: now }).where(eq(submissions.id, submissionId));
    await transfer(tx, {
      from: escrowOf(submission.taskId),
      to: walletOf(submission.workerId),
      amount: task.payableAmount,
      idempotencyKey: `approve:${submissionId}`,
    });
    await notify(
      tx,
      submission.workerId,
      `You have earned ${task.payableAmount} coins from ${task.buyerName} for completing ${task.title}`,
      "/dashboard/my-submissions",
    );
  });
  return getSubmission(db, submissionId);
}

/** Rule R5: the slot returns to an open task; on a closed task its coins return to the buyer. */
export async function rejectSubmission(db: Database, reviewer: { buyerId: string }, submissionId: string, reason: string, now: Date): Promise<Submission> {
  await db.transaction(async (tx) => {
    const [target] = await tx.select({ taskId: submissions.taskId }).from(submissions).where(eq(submissions.id, submissionId));
    if (!target) throw notFound("Submission");
    // Task first, then submission: the order submitWork takes them in.
    const [task] = await tx.select().from(tasks).where(eq(tasks.id, target.taskId)).for("update");
    if (!task) throw notFound("Task");
    const submission = await pendingForReview(tx, reviewer, submissionId);
    await tx.update(submissions).set({ status: "rejected", reason, decidedAt: now }).where(eq(submissions.id, submissionId));
    if (task.status === "open") {
      await tx.update(tasks).set({ requiredWorkers: sql`${tasks.requiredWorkers} + 1` }).where(eq(tasks.id, task.id));
    } else {
      await transfer(tx, {
        from: escrowOf(task.id),
        to: walletOf(task.buyerId),
        amount: task.payableAmount,
        idempotencyKey: `reject-refund:${submission.id}`,
      });
    }
    await notify(tx, submission.workerId, `Your submission for "${task.title}" was rejected: ${reason}`, "/dashboard/my-submissions");
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

async function pagedSubmissions(db: Database, owner: "workerId" | "buyerId", userId: string, page: PageQuery, status?: SubmissionStatus): Promise<Page<Submission>> {
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

export const listWorkerSubmissions = (db: Database, workerId: string, page: PageQuery, status?: SubmissionStatus) =>
  pagedSubmissions(db, "workerId", workerId, page, status);

export const listBuyerSubmissions = (db: Database, buyerId: string, page: PageQuery, status?: SubmissionStatus) =>
  pagedSubmissions(db, "buyerId", buyerId, page, status);
