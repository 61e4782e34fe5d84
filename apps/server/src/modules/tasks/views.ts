import { eq, getTableColumns, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Submission, Task } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { submissions, tasks, users } from "../../db/schema/index.ts";

// How tasks and submissions look in the API (api.md's shapes), and the queries that read them.

const buyers = alias(users, "buyers");
const workers = alias(users, "workers");

export const taskColumns = {
  ...getTableColumns(tasks),
  buyerName: buyers.name,
  buyerEmail: buyers.email,
};

/** A select of tasks with their buyer, ready for toTask(). */
export const selectTasks = (db: Database) => db.select(taskColumns).from(tasks).innerJoin(buyers, eq(buyers.id, tasks.buyerId));

type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTasks>["execute"]>>[number];

export function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    task_title: row.title,
    task_detail: row.detail,
    required_workers: row.requiredWorkers,
    payable_amount: row.payableAmount,
    completion_date: row.completionDate,
    task_image_url: row.imageUrl,
    submission_info: row.submissionInfo,
    user_name: row.buyerName,
    user_email: row.buyerEmail,
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
}

const submissionColumns = {
  ...getTableColumns(submissions),
  taskTitle: tasks.title,
  payableAmount: tasks.payableAmount,
  workerName: workers.name,
  workerEmail: workers.email,
  buyerName: buyers.name,
  buyerEmail: buyers.email,
};

/** A select of submissions with their task, worker and buyer, ready for toSubmission(). */
export const selectSubmissions = (db: Database) =>
  db
    .select(submissionColumns)
    .from(submissions)
    .innerJoin(tasks, eq(tasks.id, submissions.taskId))
    .innerJoin(workers, eq(workers.id, submissions.workerId))
    .innerJoin(buyers, eq(buyers.id, submissions.buyerId));

type SubmissionRow = Awaited<ReturnType<ReturnType<typeof selectSubmissions>["execute"]>>[number];

export function toSubmission(row: SubmissionRow): Submission {
  return {
    id: row.id,
    task_id: row.taskId,
    task_title: row.taskTitle,
    payable_amount: row.payableAmount,
    worker_email: row.workerEmail,
    worker_name: row.workerName,
    submission_details: row.details,
    buyer_name: row.buyerName,
    buyer_email: row.buyerEmail,
    current_date: row.createdAt.toISOString(),
    status: row.status,
    ...(row.status === "rejected" && row.reason ? { reason: row.reason } : {}),
    ...(row.status === "pending" ? { auto_approve_at: row.autoApproveAt.toISOString() } : {}),
  };
}

export const countAll = sql<number>`cast(count(*) as int)`;
