import { eq, getTableColumns, sql } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import {
  APPEAL_ANSWER_DAYS,
  workerReputationOf,
  type Appeal,
  type Submission,
  type Task,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import {
  appeals,
  buyerReputations,
  submissions,
  tasks,
  users,
  workerReputations,
} from "../../db/schema/index.ts";

// How tasks and submissions look in the API (api.md's shapes), and the queries that read them.

/** The users table as a task's buyer and as a submission's worker. */
export const buyers = alias(users, "buyers");
export const workers = alias(users, "workers");

// The search document is only matched against, never sent: every select leaves it in the database.
const { searchDocument: _searchDocument, ...taskTableColumns } = getTableColumns(tasks);

/**
 * The buyer's reputation figures as one array (approved, rejected, median review seconds), or
 * null before the first refresh. A subquery in the select list, run for the rows returned only:
 * as a join it added a relation to every task list's plan (1.4 ms of planning at a million tasks).
 */
const buyerFigures = sql<
  [number, number, number | null] | null
>`(select array[${buyerReputations.approved}::float8, ${buyerReputations.rejected}::float8, ${buyerReputations.medianReviewSeconds}] from ${buyerReputations} where ${buyerReputations.buyerId} = ${tasks.buyerId})`;

export const taskColumns = {
  ...taskTableColumns,
  buyerName: buyers.name,
  buyerEmail: buyers.email,
  buyerFigures,
};

/** A select of tasks with their buyer and the buyer's reputation, ready for toTask(). */
export const selectTasks = (db: Database) =>
  db.select(taskColumns).from(tasks).innerJoin(buyers, eq(buyers.id, tasks.buyerId));

export type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTasks>["execute"]>>[number];

export function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    task_title: row.title,
    task_detail: row.detail,
    required_workers: row.requiredWorkers,
    slots_left: row.requiredWorkers,
    payable_amount: row.payableAmount,
    completion_date: row.completionDate,
    task_image_url: row.imageUrl,
    submission_info: row.submissionInfo,
    user_name: row.buyerName,
    buyer_id: row.buyerId,
    user_email: row.buyerEmail,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    category: row.category,
    estimated_minutes: row.estimatedMinutes,
    time_limit_minutes: row.timeLimitMinutes,
    proof_images: row.proofImages,
    min_approval_rate: row.minApprovalRate,
    min_level: row.minLevel,
    buyer_reputation: buyerReputationOf(row),
  };
}

/** Rule R21: the buyer's approval rate and median review time as the last refresh found them. */
function buyerReputationOf(row: TaskRow): Task["buyer_reputation"] {
  const [approved, rejected, seconds] = row.buyerFigures ?? [0, 0, null];
  const decided = approved + rejected;
  return {
    approval_rate: decided === 0 ? null : Math.floor((approved * 100) / decided),
    median_review_hours: seconds === null ? null : Math.round(seconds / 360) / 10,
    decided,
  };
}

/** Who reads a task: the buyer's email is shown to signed-in users only (never to visitors). */
export type TaskAudience = "signed-in" | "visitor";

export function taskFor(task: Task, audience: TaskAudience): Task {
  if (audience === "signed-in") return task;
  const { user_email: _buyerEmail, ...forVisitor } = task;
  return forVisitor;
}

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

/** A select of submissions with their task, worker, buyer, appeal and the worker's reputation, ready for toSubmission(). */
export const selectSubmissions = (db: Database) =>
  db
    .select(submissionColumnsOf(submissions))
    .from(submissions)
    .innerJoin(tasks, eq(tasks.id, submissions.taskId))
    .innerJoin(workers, eq(workers.id, submissions.workerId))
    .innerJoin(buyers, eq(buyers.id, submissions.buyerId))
    .leftJoin(appeals, eq(appeals.submissionId, submissions.id))
    .leftJoin(workerReputations, eq(workerReputations.workerId, submissions.workerId));

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
    appeal: row.appeal ? toAppeal(row.appeal) : null,
    worker_reputation: workerReputationOf({
      approved: row.workerApproved ?? 0,
      rejected: row.workerRejected ?? 0,
    }),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

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
