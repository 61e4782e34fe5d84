import { randomUUID } from "node:crypto";
import { and, asc, eq, gt, lte, notExists, sql, type AnyColumn, type Placeholder } from "drizzle-orm";
import { isoDate, MAX_ACTIVE_RESERVATIONS, paths, type Reservation } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { reservations, submissions, tasks, users } from "../../db/schema/index.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { notify } from "../notifications/service.ts";
import { takeOpenSlot } from "../../core/slots.ts";
import { assertQualified } from "../trust/service.ts";

// Rule R20: a reservation holds one of a task's slots for its worker for the task's time limit.
// Every path that ends one does it with a conditional update on `status = 'active'`, so it ends
// once; and every path locks the task's row before the reservation's, so none deadlocks.

type ReservationRow = typeof reservations.$inferSelect;

const toReservation = (row: ReservationRow, taskTitle: string): Reservation => ({
  id: row.id,
  task_id: row.taskId,
  task_title: taskTitle,
  created_at: row.createdAt.toISOString(),
  expires_at: row.expiresAt.toISOString(),
  status: row.status,
});

const selectReservations = (db: Database) =>
  db
    .select({ reservation: reservations, taskTitle: tasks.title })
    .from(reservations)
    .innerJoin(tasks, eq(tasks.id, reservations.taskId));

/** The worker's live reservation of the task (a task id, or the tasks table's id column in a subquery). */
export const liveReservationOf = (taskId: string | AnyColumn, workerId: string | Placeholder) =>
  and(
    eq(reservations.taskId, taskId),
    eq(reservations.workerId, workerId),
    eq(reservations.status, "active"),
  );

/**
 * The tasks the worker holds a live reservation on, as a subquery. The status is a literal so a
 * prepared statement's generic plan can use the partial index over live reservations.
 */
export const tasksReservedBy = (db: Database, workerId: string | Placeholder) =>
  db
    .select({ taskId: reservations.taskId })
    .from(reservations)
    .where(and(eq(reservations.workerId, workerId), sql`${reservations.status} = 'active'`));

const noReservation = (message: string) => new AppError("NO_RESERVATION", message);

/**
 * Reserves a slot of the task for the worker: takes an open slot with one conditional update
 * (like a submission), refused when the worker already submitted, already holds one here, or
 * holds MAX_ACTIVE_RESERVATIONS. No coin moves: the slot's coins are already in escrow.
 */
export async function reserveSlot(
  db: Database,
  request: { workerId: string; taskId: string; now: Date },
): Promise<Reservation> {
  const { workerId, taskId, now } = request;
  return db.transaction(async (tx) => {
    // The worker's row serializes their reservations, so two at once cannot pass the limit together.
    // Not FOR UPDATE: that would also wait for (and deadlock with) a submission of theirs, whose
    // insert takes a key-share lock on the row while it holds the task's.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, workerId)).for("no key update");
    const active = await tx.$count(
      reservations,
      and(
        eq(reservations.workerId, workerId),
        eq(reservations.status, "active"),
        gt(reservations.expiresAt, now),
      ),
    );
    if (active >= MAX_ACTIVE_RESERVATIONS)
      throw new AppError(
        "RESERVATION_LIMIT",
        `You can hold at most ${MAX_ACTIVE_RESERVATIONS} tasks at once: submit or cancel one first`,
      );
    const task = await takeOpenSlot(tx, {
      taskId,
      workerId,
      now,
      unless: notExists(
        tx
          .select({ one: sql`1` })
          .from(reservations)
          .where(liveReservationOf(taskId, workerId)),
      ),
    });
    if (!task) throw await whyNotReservable(tx, taskId, workerId, now);
    // The slot's statement cannot see a submission of the worker's committed while it waited for
    // the task's row; a statement after it can (the rollback returns the slot).
    if (await submittedTo(tx, taskId, workerId)) throw alreadySubmitted();
    // After the slot is known to be takeable, so a refusal says the real reason; the rollback returns it.
    await assertQualified(tx, { workerId, taskId });
    if (task.buyerId === workerId) throw new AppError("FORBIDDEN", "You cannot reserve your own task");
    const row = {
      id: randomUUID(),
      taskId,
      workerId,
      status: "active" as const,
      createdAt: now,
      expiresAt: new Date(now.getTime() + task.timeLimitMinutes * 60_000),
    };
    try {
      await tx.insert(reservations).values(row);
    } catch (error) {
      // The unique active (task, worker) index: a racing request of the same worker won; the rollback returns the slot.
      if (isUniqueViolation(error)) throw new AppError("CONFLICT", "You have already reserved this task");
      throw error;
    }
    return toReservation({ ...row, endedAt: null }, task.title);
  });
}

async function submittedTo(db: Database, taskId: string, workerId: string): Promise<boolean> {
  const [submitted] = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.taskId, taskId), eq(submissions.workerId, workerId)));
  return submitted !== undefined;
}

const alreadySubmitted = () =>
  new AppError("ALREADY_SUBMITTED", "You have already submitted work for this task");

async function whyNotReservable(
  db: Database,
  taskId: string,
  workerId: string,
  now: Date,
): Promise<AppError> {
  const [own] = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(liveReservationOf(taskId, workerId));
  if (own) return new AppError("CONFLICT", "You have already reserved this task");
  if (await submittedTo(db, taskId, workerId)) return alreadySubmitted();
  const [task] = await db
    .select({ status: tasks.status, deletedAt: tasks.deletedAt, completionDate: tasks.completionDate })
    .from(tasks)
    .where(eq(tasks.id, taskId));
  if (!task || task.deletedAt) return notFound("Task");
  if (task.status === "closed" || task.completionDate < isoDate(now))
    return new AppError("TASK_CLOSED", "This task is closed");
  return new AppError("NO_SLOTS_LEFT", "All slots of this task are taken");
}

/** Locks the task's row: every path that ends a reservation takes it first (see the top). */
const lockTask = (db: Database, taskId: string) =>
  db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, taskId)).for("update");

/**
 * Ends one active reservation as `status` (cancelled or expired) and gives its slot back to
 * the task, if still open. False when it had already ended (another path won).
 */
async function endAndReturnSlot(
  db: Database,
  reservation: { id: string; taskId: string },
  status: "cancelled" | "expired",
  now: Date,
): Promise<boolean> {
  await lockTask(db, reservation.taskId);
  const [ended] = await db
    .update(reservations)
    .set({ status, endedAt: now })
    .where(and(eq(reservations.id, reservation.id), eq(reservations.status, "active")))
    .returning({ id: reservations.id });
  if (!ended) return false;
  await db
    .update(tasks)
    .set({ requiredWorkers: sql`${tasks.requiredWorkers} + 1` })
    .where(and(eq(tasks.id, reservation.taskId), eq(tasks.status, "open")));
  return true;
}

/** The worker cancels their reservation: the slot goes back to the task. */
export async function cancelReservation(
  db: Database,
  request: { workerId: string; reservationId: string; now: Date },
): Promise<Reservation> {
  const { workerId, reservationId, now } = request;
  return db.transaction(async (tx) => {
    const [found] = await selectReservations(tx).where(
      and(eq(reservations.id, reservationId), eq(reservations.workerId, workerId)),
    );
    if (!found) throw notFound("Reservation");
    if (!(await endAndReturnSlot(tx, found.reservation, "cancelled", now)))
      throw noReservation("This reservation has already ended");
    const [row] = await selectReservations(tx).where(eq(reservations.id, reservationId));
    if (!row) throw notFound("Reservation");
    return toReservation(row.reservation, row.taskTitle);
  });
}

/** Ends reservations whose time ran out, giving their slots back; answers how many. Safe in several processes. */
export async function expireReservations(db: Database, now: Date, batch = 200): Promise<number> {
  const due = await selectReservations(db)
    .where(and(eq(reservations.status, "active"), lte(reservations.expiresAt, now)))
    .orderBy(asc(reservations.expiresAt))
    .limit(batch);
  let expired = 0;
  for (const { reservation, taskTitle } of due) {
    const ended = await db.transaction(async (tx) => {
      if (!(await endAndReturnSlot(tx, reservation, "expired", now))) return false;
      await notify(tx, {
        userId: reservation.workerId,
        message: `Your time limit for "${taskTitle}" ran out, so the slot went back to the task`,
        actionRoute: paths.dashboard.taskDetails(reservation.taskId),
        kind: "other",
      });
      return true;
    });
    if (ended) expired += 1;
  }
  return expired;
}

/**
 * For a submission, in the caller's transaction after it locked the task: ends the worker's
 * live reservation of the task as submitted (true: the submission takes its slot). A reservation
 * whose time ran out is ended as expired and its slot given back first (false).
 */
export async function useReservation(
  db: Database,
  use: { workerId: string; taskId: string; now: Date },
): Promise<boolean> {
  const { workerId, taskId, now } = use;
  const mine = liveReservationOf(taskId, workerId);
  const [overdue] = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(mine, lte(reservations.expiresAt, now)));
  if (overdue) await endAndReturnSlot(db, { id: overdue.id, taskId }, "expired", now);
  const [used] = await db
    .update(reservations)
    .set({ status: "submitted", endedAt: now })
    .where(and(mine, gt(reservations.expiresAt, now)))
    .returning({ id: reservations.id });
  return Boolean(used);
}

/**
 * For a task closing, in the caller's transaction after it locked the task: ends its live
 * reservations and tells their workers; answers how many slots they held (refunded with the
 * open ones).
 */
export async function endReservationsOfTask(
  db: Database,
  task: { id: string; title: string },
  now: Date,
): Promise<number> {
  const ended = await db
    .update(reservations)
    .set({ status: "ended", endedAt: now })
    .where(and(eq(reservations.taskId, task.id), eq(reservations.status, "active")))
    .returning({ workerId: reservations.workerId });
  for (const { workerId } of ended)
    await notify(db, {
      userId: workerId,
      message: `"${task.title}" was closed, so your reservation ended`,
      actionRoute: paths.dashboard.taskList,
      kind: "other",
    });
  return ended.length;
}

/** A deleted worker's live reservations end, their slots back to their tasks. */
export async function cancelReservationsOf(db: Database, workerId: string, now: Date): Promise<void> {
  const live = await db
    .select({ id: reservations.id, taskId: reservations.taskId })
    .from(reservations)
    .where(and(eq(reservations.workerId, workerId), eq(reservations.status, "active")));
  for (const reservation of live) await endAndReturnSlot(db, reservation, "cancelled", now);
}

/** The worker's live reservations, the soonest to run out first. */
export async function listActiveReservations(
  db: Database,
  workerId: string,
  now: Date,
): Promise<Reservation[]> {
  const rows = await selectReservations(db)
    .where(
      and(
        eq(reservations.workerId, workerId),
        eq(reservations.status, "active"),
        gt(reservations.expiresAt, now),
      ),
    )
    .orderBy(asc(reservations.expiresAt));
  return rows.map((row) => toReservation(row.reservation, row.taskTitle));
}

/** The worker's live reservation of one task, or null. */
export async function activeReservationOf(
  db: Database,
  request: { workerId: string; taskId: string; now: Date },
): Promise<Reservation | null> {
  const [row] = await selectReservations(db).where(
    and(liveReservationOf(request.taskId, request.workerId), gt(reservations.expiresAt, request.now)),
  );
  return row ? toReservation(row.reservation, row.taskTitle) : null;
}
