import { and, eq, getTableColumns, lte, sql } from "drizzle-orm";
import { APPEAL_WINDOW_DAYS, paths, type Submission } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { appeals, submissions, tasks, users, workerReputations } from "../../db/schema/index.ts";
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
import { asSentence, notify, notifySql } from "../notifications/service.ts";
import { queueSubmissionWebhooks, submissionWebhooksSql } from "../webhooks/service.ts";
import { buyers, getSubmission, submissionColumnsOf, toSubmission, workers } from "./views.ts";

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

/** The worker's notification on approval (rule R15): amount ("1 coin", "7 coins"), buyer's name, task title. */
const EARNED_MESSAGE = 'You have earned %s %s from %s for "%s"';

/**
 * Rule R4: pays the worker from the task's escrow, once. One statement decides the
 * submission, pays and notifies the worker (all or nothing), and reads the result back.
 */
export async function approveSubmission(
  db: Database,
  approval: { reviewer: Reviewer; submissionId: string; now: Date },
): Promise<Submission> {
  const { reviewer, submissionId, now } = approval;
  const byServer = reviewer === "auto-approval";
  const [approved] = await approvalStatement(db, byServer)
    .execute({ id: submissionId, buyerId: byServer ? null : reviewer.buyerId, now: now.toISOString() })
    .catch((error: unknown) => {
      throw asLedgerError(error);
    });
  if (!approved) throw await whyNotDecided(db, reviewer, submissionId);
  // The approval's key names this submission, and only a pending one is approved: a repeat
  // transfer (false) would mean a submission approved twice.
  if (approved.paid !== true) throw new Error(`approval of submission ${submissionId} moved no coins`);
  return toSubmission(approved);
}

/**
 * The approval, prepared once per database: by the task's buyer, or by the server (R6).
 *
 * Why a submission cannot be approved without its payment: the payment and the worker's
 * notification are expressions in the UPDATE's RETURNING list, which PostgreSQL evaluates
 * for every row the update changes, inside the same statement. When the escrow cannot pay,
 * ledger_transfer raises and the whole statement, the update included, is undone. The select
 * that reads the row back comes after and can drop nothing that was paid. approveSubmission
 * asserts that the payment moved coins, so a change that breaks this fails loudly.
 */
function approvalStatement(db: Database, byServer: boolean) {
  const name = byServer ? "auto_approve_submission" : "approve_submission";
  const where = and(
    eq(submissions.id, sql.placeholder("id")),
    eq(submissions.status, "pending"),
    byServer ? undefined : eq(submissions.buyerId, sql.placeholder("buyerId")),
    eq(tasks.id, submissions.taskId),
  );
  const buyerName = sql`(select ${users.name} from ${users} where ${users.id} = ${submissions.buyerId})`;
  return preparedStatement(db, name, () => {
    const decided = db.$with("decided").as(
      db
        .update(submissions)
        .set({ status: "approved", decidedAt: sql`${sql.placeholder("now")}::timestamptz` })
        .from(tasks)
        .where(where)
        .returning({
          ...getTableColumns(submissions),
          paid: transferSql({
            from: escrowKeySql(submissions.taskId),
            to: walletKeySql(submissions.workerId),
            amount: tasks.payableAmount,
            idempotencyKey: sql`${"approve:"} || ${submissions.id}`,
          }).as("paid"),
          notified: notifySql(
            submissions.workerId,
            sql`format(${EARNED_MESSAGE}::text, ${tasks.payableAmount}, case when ${tasks.payableAmount} = 1 then 'coin' else 'coins' end, ${buyerName}, ${tasks.title})`,
            paths.dashboard.mySubmissions,
            "work_decided",
          ).as("notified"),
          // After the payment: the webhooks' task lock is the last one the statement takes.
          webhooks: submissionWebhooksSql(
            {
              buyerId: submissions.buyerId,
              submissionId: submissions.id,
              taskId: submissions.taskId,
              workerId: submissions.workerId,
            },
            "submission.approved",
            sql`${sql.placeholder("now")}::timestamptz`,
          ).as("webhooks"),
        }),
    );
    return db
      .with(decided)
      .select({ ...submissionColumnsOf(decided), paid: decided.paid })
      .from(decided)
      .innerJoin(tasks, eq(tasks.id, decided.taskId))
      .innerJoin(workers, eq(workers.id, decided.workerId))
      .innerJoin(buyers, eq(buyers.id, decided.buyerId))
      .leftJoin(appeals, eq(appeals.submissionId, decided.id))
      .leftJoin(workerReputations, eq(workerReputations.workerId, decided.workerId))
      .prepare(name);
  });
}

/** Rule R5: the slot returns to an open task; on a closed task its coins return to the buyer. */
export async function rejectSubmission(
  db: Database,
  rejection: { reviewer: { buyerId: string }; submissionId: string; reason: string; now: Date },
): Promise<Submission> {
  const { reviewer, submissionId, reason, now } = rejection;
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
    await notify(tx, {
      userId: workerId,
      message: `Your submission for "${task.title}" was rejected: ${asSentence(reason)} You can appeal within ${APPEAL_WINDOW_DAYS} days.`,
      actionRoute: paths.dashboard.mySubmissions,
      kind: "work_decided",
    });
    await queueSubmissionWebhooks(
      tx,
      { buyerId: task.buyerId, submissionId, taskId: task.id, workerId, now },
      "submission.rejected",
    );
  });
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
      await approveSubmission(db, { reviewer: "auto-approval", submissionId: id, now });
      approved += 1;
    } catch (error) {
      // Another server process, or the buyer, decided it first.
      if (!(error instanceof AppError && error.code === "ALREADY_DECIDED")) throw error;
    }
  }
  return approved;
}

/** Which of one user's submissions a list shows: by status, and by the state of their appeal. */
