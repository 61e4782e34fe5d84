import { eq, getTableColumns, sql } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import {
  appealDeadline,
  DAY_MS,
  APPEAL_ANSWER_DAYS,
  workerReputationOf,
  type Appeal,
  type AppealCase,
  type Submission,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { notFound } from "../../lib/errors.ts";
import { preparedStatement } from "../../lib/prepared.ts";
import {
  appeals,
  buyerReputations,
  submissions,
  tasks,
  users,
  workerReputations,
} from "../../db/schema/index.ts";

// How submissions look in the API (api.md's shapes), and the query that reads them.

/** The users table as a submission's buyer and worker. */
export const buyers = alias(users, "buyers");
export const workers = alias(users, "workers");

/** The submissions table's columns, or those of a statement that returns its rows. */
export type SubmissionColumns = Record<keyof typeof submissions._.columns, AnyPgColumn>;

const submissionKeys = Object.keys(getTableColumns(submissions)) as (keyof SubmissionColumns)[];

/** The view's columns, over the submissions table or over a statement that returns its rows. */
export function submissionColumnsOf<Source extends SubmissionColumns>(source: Source) {
  const own = Object.fromEntries(submissionKeys.map((key) => [key, source[key]])) as Pick<
    Source,
    keyof SubmissionColumns
  >;
  return {
    ...own,
    taskTitle: tasks.title,
    payableAmount: tasks.payableAmount,
    workerName: workers.name,
    workerEmail: workers.email,
    buyerName: buyers.name,
    buyerEmail: buyers.email,
    appeal: getTableColumns(appeals),
    workerApproved: workerReputations.approved,
    workerRejected: workerReputations.rejected,
  };
}

/**
 * A select of submissions with their task, worker, buyer, appeal and the worker's reputation,
 * and the `extra` columns of those tables or of tables the caller joins next.
 */
const selectSubmissionsWith = <Extra extends Record<string, AnyPgColumn>>(db: Database, extra: Extra) =>
  db
    .select({ ...submissionColumnsOf(submissions), ...extra })
    .from(submissions)
    .innerJoin(tasks, eq(tasks.id, submissions.taskId))
    .innerJoin(workers, eq(workers.id, submissions.workerId))
    .innerJoin(buyers, eq(buyers.id, submissions.buyerId))
    .leftJoin(appeals, eq(appeals.submissionId, submissions.id))
    .leftJoin(workerReputations, eq(workerReputations.workerId, submissions.workerId));

/** A select of submissions ready for toSubmission(). */
export const selectSubmissions = (db: Database) => selectSubmissionsWith(db, {});

type SubmissionRow = Awaited<ReturnType<ReturnType<typeof selectSubmissions>["execute"]>>[number];

export function toSubmission(row: SubmissionRow): Submission {
  return {
    id: row.id,
    task_id: row.taskId,
    task_title: row.taskTitle,
    payable_amount: row.payableAmount,
    worker_email: row.workerEmail,
    worker_name: row.workerName,
    worker_id: row.workerId,
    submission_details: row.details,
    attachments: row.attachments,
    buyer_name: row.buyerName,
    buyer_email: row.buyerEmail,
    current_date: row.createdAt.toISOString(),
    status: row.status,
    ...(row.status === "rejected" && row.reason ? { reason: row.reason } : {}),
    ...(row.status === "pending" ? { auto_approve_at: row.autoApproveAt.toISOString() } : {}),
    decided_at: row.decidedAt?.toISOString() ?? null,
    appeal_until:
      row.status === "rejected" && row.decidedAt && !row.appeal
        ? appealDeadline(row.decidedAt).toISOString()
        : null,
    appeal: row.appeal ? toAppeal(row.appeal) : null,
    worker_reputation: workerReputationOf({
      approved: row.workerApproved ?? 0,
      rejected: row.workerRejected ?? 0,
    }),
  };
}

/**
 * A select of appeal cases: the submissions' view plus the task's instructions and the buyer's
 * reputation, in the same one query (a left join on the buyer's row), ready for toAppealCase().
 * Only submissions with an appeal: the caller's condition names the appeal's status.
 */
export const selectAppealCases = (db: Database) =>
  selectSubmissionsWith(db, {
    taskDetail: tasks.detail,
    submissionInfo: tasks.submissionInfo,
    proofImages: tasks.proofImages,
    buyerApproved: buyerReputations.approved,
    buyerRejected: buyerReputations.rejected,
    buyerMedianSeconds: buyerReputations.medianReviewSeconds,
  }).leftJoin(buyerReputations, eq(buyerReputations.buyerId, submissions.buyerId));

type AppealCaseRow = Awaited<ReturnType<ReturnType<typeof selectAppealCases>["execute"]>>[number];

export function toAppealCase(row: AppealCaseRow): AppealCase {
  const approved = row.buyerApproved ?? 0;
  const decided = approved + (row.buyerRejected ?? 0);
  const seconds = row.buyerMedianSeconds;
  return {
    ...toSubmission(row),
    task_detail: row.taskDetail,
    submission_info: row.submissionInfo,
    proof_images: row.proofImages,
    // Rule R21, as the task lists show it: the last refresh's figures.
    buyer_reputation: {
      approval_rate: decided === 0 ? null : Math.floor((approved * 100) / decided),
      median_review_hours: seconds === null || seconds === undefined ? null : Math.round(seconds / 360) / 10,
      decided,
    },
  };
}

function toAppeal(appeal: typeof appeals.$inferSelect): Appeal {
  const escalateFrom =
    appeal.status === "upheld_by_buyer"
      ? appeal.answeredAt
      : appeal.status === "open"
        ? new Date(appeal.createdAt.getTime() + APPEAL_ANSWER_DAYS * DAY_MS)
        : null;
  return {
    status: appeal.status,
    message: appeal.message,
    answer: appeal.answer,
    created_at: appeal.createdAt.toISOString(),
    escalate_from: escalateFrom?.toISOString() ?? null,
    decided_by: appeal.decidedBy,
    paid_from: appeal.paidFrom,
  };
}

/**
 * One submission as the API shows it. Prepared: its six-table join took PostgreSQL 1.2 ms to plan
 * each time, more than the query itself (docs/performance.md).
 */
export async function getSubmission(db: Database, submissionId: string): Promise<Submission> {
  const statement = preparedStatement(db, "submission_by_id", () =>
    selectSubmissions(db)
      .where(eq(submissions.id, sql.placeholder("id")))
      .prepare("submission_by_id"),
  );
  const [row] = await statement.execute({ id: submissionId });
  if (!row) throw notFound("Submission");
  return toSubmission(row);
}

/**
 * A submission's parties and state, for the modules that act on one (appeals, bonuses): its
 * task's title, its worker's name and whether their account is gone, and its appeal's status.
 */
export async function submissionFacts(db: Database, submissionId: string) {
  const [row] = await db
    .select({
      id: submissions.id,
      taskId: submissions.taskId,
      workerId: submissions.workerId,
      buyerId: submissions.buyerId,
      status: submissions.status,
      decidedAt: submissions.decidedAt,
      taskTitle: tasks.title,
      workerName: workers.name,
      workerDeletedAt: workers.deletedAt,
      appealStatus: appeals.status,
    })
    .from(submissions)
    .innerJoin(tasks, eq(tasks.id, submissions.taskId))
    .innerJoin(workers, eq(workers.id, submissions.workerId))
    .leftJoin(appeals, eq(appeals.submissionId, submissions.id))
    .where(eq(submissions.id, submissionId));
  if (!row) throw notFound("Submission");
  return row;
}
