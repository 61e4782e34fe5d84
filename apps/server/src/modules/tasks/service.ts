import { randomUUID } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import {
  isoDate,
  type CreateTaskFields,
  type EditableTaskFields,
  type Role,
  type Task,
  type TaskDetails,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { tasks } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { preparedStatement } from "../../lib/prepared.ts";
import { recordAudit } from "../../core/audit.ts";
import { queueTasksPosted } from "../../core/tasks-posted.ts";
import { escrowOf, openAccount, transfer, walletOf } from "../ledger/service.ts";
import { activeReservationOf, endReservationsOfTask } from "../reservations/service.ts";
import { submissionOfWorker } from "../submissions/service.ts";
import { processImage, storeImage } from "../uploads/service.ts";
import { queueWebhookEvent } from "../webhooks/service.ts";
import { categoryPictureUrl } from "./category-picture.ts";
import { taskColumnsOf } from "./columns.ts";
import { selectTasks, taskFor, toTask } from "./views.ts";

// Listing and searching tasks is lists.ts; the admin's list of every task is offered here, the
// module's face to others.
export { listAllTasks } from "./lists.ts";
export { postFundedTasks } from "./bulk.ts";
export { searchQuerySql, takeable } from "./search.ts";

export interface Actor {
  id: string;
  role: Role;
}

/** What a new task's completion date breaks beyond its schema (it is in the past), or null. */
export const completionDateProblem = (fields: Pick<CreateTaskFields, "completion_date">, now: Date) =>
  fields.completion_date < isoDate(now) ? "Completion date must be today or later" : null;

/** Rule R2: the task, its image (or its category's picture, decision 036) and its escrow, funded from the buyer's wallet, in one transaction. */
export async function createTask(
  db: Database,
  task: { buyerId: string; fields: CreateTaskFields; image: Buffer | undefined; now: Date },
): Promise<Task> {
  const { buyerId, fields, image, now } = task;
  const late = completionDateProblem(fields, now);
  if (late) throw new AppError("VALIDATION", late, { completion_date: late });
  const processed = image ? await processImage(image) : null;
  const id = randomUUID();
  const cost = fields.required_workers * fields.payable_amount;
  await db.transaction(async (tx) => {
    const imageUrl = processed ? await storeImage(tx, processed) : categoryPictureUrl(fields.category);
    await tx.insert(tasks).values({
      id,
      buyerId,
      ...taskColumnsOf(fields),
      imageUrl,
      createdAt: now,
    });
    await openAccount(tx, { kind: "escrow", ownerKey: escrowOf(id) });
    await transfer(tx, {
      from: walletOf(buyerId),
      to: escrowOf(id),
      amount: cost,
      idempotencyKey: `task-fund:${id}`,
    });
    await queueTasksPosted(tx, { taskIds: [id], now });
  });
  return getTask(db, id, { id: buyerId, role: "buyer" });
}

/** One task; a deleted one only for its owner and admins. */
export async function getTask(db: Database, taskId: string, viewer: Actor | null): Promise<Task> {
  // Prepared: planning its three-table read took PostgreSQL longer than running it.
  const statement = preparedStatement(db, "task_by_id", () =>
    selectTasks(db)
      .where(eq(tasks.id, sql.placeholder("id")))
      .prepare("task_by_id"),
  );
  const [row] = await statement.execute({ id: taskId });
  const visible = row && (!row.deletedAt || viewer?.role === "admin" || viewer?.id === row.buyerId);
  if (!row || !visible) throw notFound("Task");
  return taskFor(toTask(row), viewer ? "signed-in" : "visitor");
}

/**
 * One task as GET /api/tasks/:id answers it: for a signed-in reader, with their own
 * submission to it and their live reservation of it (null if none), so a worker who already
 * submitted sees its status, and one who reserved it sees their time left.
 */
export async function getTaskDetails(
  db: Database,
  request: { taskId: string; viewer: Actor | null; now: Date },
): Promise<TaskDetails> {
  const { taskId, viewer, now } = request;
  const task = await getTask(db, taskId, viewer);
  if (!viewer) return task;
  const [own, reservation] = await Promise.all([
    submissionOfWorker(db, { taskId, workerId: viewer.id }),
    activeReservationOf(db, { workerId: viewer.id, taskId, now }),
  ]);
  if (!own) return { ...task, my_submission: null, my_reservation: reservation };
  const { id, status, current_date, reason, auto_approve_at } = own;
  return {
    ...task,
    my_reservation: reservation,
    my_submission: {
      id,
      status,
      current_date,
      ...(reason ? { reason } : {}),
      ...(auto_approve_at ? { auto_approve_at } : {}),
    },
  };
}

/** Loads a live task for a change: 404 when missing or deleted, 403 unless the actor owns it (or is an admin, when allowed). */
async function ownedTask(
  db: Database,
  actor: Actor,
  taskId: string,
  options: { lock: boolean; adminToo: boolean },
) {
  const query = db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, taskId), isNull(tasks.deletedAt)));
  const [task] = options.lock ? await query.for("update") : await query;
  if (!task) throw notFound("Task");
  const allowed = task.buyerId === actor.id || (options.adminToo && actor.role === "admin");
  if (!allowed) throw new AppError("FORBIDDEN", "This is not your task");
  return task;
}

/** Rule R7: the owner edits title, detail and submission info only. */
export async function updateTask(
  db: Database,
  update: { actor: Actor; taskId: string; fields: EditableTaskFields },
): Promise<Task> {
  const { actor, taskId, fields } = update;
  await ownedTask(db, actor, taskId, { lock: false, adminToo: false });
  await db
    .update(tasks)
    .set({ title: fields.task_title, detail: fields.task_detail, submissionInfo: fields.submission_info })
    .where(eq(tasks.id, taskId));
  return getTask(db, taskId, actor);
}

/**
 * Closes a task and returns its open and reserved slots' coins to the buyer (rules R8, R9 and
 * R20). Pending submissions keep their escrow and stay reviewable. Safe to repeat.
 */
async function closeTask(
  db: Database,
  taskId: string,
  options: { delete: boolean; now: Date },
): Promise<number> {
  const [task] = await db.select().from(tasks).where(eq(tasks.id, taskId)).for("update");
  if (!task) throw notFound("Task");
  // Rule R20: the slots live reservations hold are refunded with the open ones.
  const reserved =
    task.status === "open"
      ? await endReservationsOfTask(db, { id: taskId, title: task.title }, options.now)
      : 0;
  const refund = task.status === "open" ? (task.requiredWorkers + reserved) * task.payableAmount : 0;
  await db
    .update(tasks)
    .set({
      status: "closed",
      requiredWorkers: 0,
      ...(options.delete && !task.deletedAt ? { deletedAt: options.now } : {}),
    })
    .where(eq(tasks.id, taskId));
  if (refund > 0) {
    await transfer(db, {
      from: escrowOf(taskId),
      to: walletOf(task.buyerId),
      amount: refund,
      idempotencyKey: `task-close:${taskId}`,
    });
  }
  return refund;
}

/** Rule R8: the owner or an admin deletes a task; answers the coins refunded. An admin's deletion is audited. */
export async function deleteTask(
  db: Database,
  deletion: { actor: Actor; taskId: string; now: Date },
): Promise<{ refunded_coins: number }> {
  const { actor, taskId, now } = deletion;
  return db.transaction(async (tx) => {
    const task = await ownedTask(tx, actor, taskId, { lock: true, adminToo: true });
    const refunded = await closeTask(tx, taskId, { delete: true, now });
    if (task.buyerId !== actor.id) {
      await recordAudit(tx, {
        actorId: actor.id,
        action: "delete_task",
        targetType: "task",
        targetId: taskId,
        before: { status: task.status, required_workers: task.requiredWorkers, task_title: task.title },
        after: { status: "closed", deleted: true, refunded_coins: refunded },
      });
    }
    return { refunded_coins: refunded };
  });
}

/** Rule R12: closes a deleted buyer's open tasks, refunding their open slots. */
export async function closeTasksOf(db: Database, buyerId: string, now: Date): Promise<number> {
  const open = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.buyerId, buyerId), eq(tasks.status, "open")));
  let refunded = 0;
  for (const { id } of open) refunded += await closeTask(db, id, { delete: true, now });
  return refunded;
}

/** Rule R9: closes open tasks whose completion date has passed; returns how many. */
export async function expireTasks(db: Database, now: Date, batch = 200): Promise<number> {
  const due = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.status, "open"), lt(tasks.completionDate, isoDate(now))))
    .limit(batch);
  for (const { id } of due) {
    // Another server process may close the same task: closing twice refunds once, and tells once.
    await db.transaction(async (tx) => {
      const [open] = await tx
        .select({ buyerId: tasks.buyerId })
        .from(tasks)
        .where(and(eq(tasks.id, id), eq(tasks.status, "open")))
        .for("update");
      if (!open) return;
      await closeTask(tx, id, { delete: false, now });
      await queueWebhookEvent(tx, {
        buyerId: open.buyerId,
        type: "task.expired",
        data: { task_id: id },
        now,
      });
    });
  }
  return due.length;
}
