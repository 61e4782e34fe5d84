import { eq, getTableColumns, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Task } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { buyerReputations, tasks, users } from "../../db/schema/index.ts";

// How tasks look in the API (api.md's shapes), and the query that reads them.

/** The users table as a task's buyer. */
const buyers = alias(users, "buyers");

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
