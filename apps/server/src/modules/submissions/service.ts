import { randomUUID } from "node:crypto";
import { and, eq, gte, isNull, notExists, sql } from "drizzle-orm";
import { DAY_MS, isoDate, MAX_PROOF_IMAGES, paths, type Submission } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { reservations, submissions, tasks, users } from "../../db/schema/index.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { notifySql } from "../notifications/service.ts";
import { submissionWebhooksSql } from "../webhooks/service.ts";
import { liveReservationOf, useReservation } from "../reservations/service.ts";
import { takeOpenSlot } from "../../core/slots.ts";
import { whyNotQualified } from "../trust/service.ts";
import { processImage, storeImage } from "../uploads/service.ts";
import { getSubmission, selectSubmissions, toSubmission } from "./views.ts";

// The module's face to others: the read model (appeals show submissions), the review (an
// admin's deletion of a worker rejects their work, the jobs auto-approve).
export {
  selectAppealCases,
  selectSubmissions,
  submissionFacts,
  toAppealCase,
  toSubmission,
} from "./views.ts";
export { approveSubmission, autoApproveDue, rejectSubmission } from "./review.ts";

/** The worker's own submission to a task, as the API shows it, or null. */
export async function submissionOfWorker(
  db: Database,
  of: { taskId: string; workerId: string },
): Promise<Submission | null> {
  const [row] = await selectSubmissions(db).where(
    and(eq(submissions.taskId, of.taskId), eq(submissions.workerId, of.workerId)),
  );
  return row ? toSubmission(row) : null;
}

const tooManyScreenshots = () => {
  const message = `Send at most ${MAX_PROOF_IMAGES} screenshots`;
  return new AppError("VALIDATION", message, { attachments: message });
};

const alreadySubmitted = () =>
  new AppError("ALREADY_SUBMITTED", "You have already submitted work for this task");

/** The buyer's notification of new work: the worker's name, the task's title. */
const SUBMITTED_MESSAGE = '%s submitted work for "%s"';

/** The worker holds no live reservation of the task (`tasks` of the statement), past its time or not. */
const noLiveReservation = (db: Database, workerId: string) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(reservations)
      .where(liveReservationOf(tasks.id, workerId)),
  );

/**
 * Rules R3 and R20: records the submission in a free slot taken with one conditional update, or
 * in the slot the worker's live reservation holds; or changes nothing.
 *
 * Many workers submit to the same new task at once, and each holds its row's lock until its
 * commit: the lock is taken as late and held as briefly as the rules allow (docs/performance.md).
 * Qualification is read before it (rules R21, R23), and its refusal thrown only once the slot is
 * known to be takeable, so a refusal says the real reason; the rollback returns the slot. The
 * submission and the buyer's notification are one statement. All on one connection: a submit
 * that took three from the pool waited for them when many came at once.
 */
export async function submitWork(
  db: Database,
  work: {
    workerId: string;
    taskId: string;
    details: string;
    /** Screenshots as sent; checked and re-encoded here (rule R18). */
    attachments?: Buffer[];
    now: Date;
    autoApproveDays: number;
  },
): Promise<Submission> {
  const { workerId, taskId, details, now, autoApproveDays } = work;
  const sent = work.attachments ?? [];
  if (sent.length > MAX_PROOF_IMAGES) throw tooManyScreenshots();
  // Decoded before the transaction: image work holds no lock.
  const screenshots = await Promise.all(sent.map((bytes) => processImage(bytes)));
  const id = randomUUID();
  return db.transaction(async (tx) => {
    const notQualified = await whyNotQualified(tx, { workerId, taskId });
    // Stored before the slot's lock is taken (a refusal rolls them back): each is a round trip.
    const attachments = await Promise.all(screenshots.map((image) => storeImage(tx, image)));
    // Without a reservation of the worker's, a free slot in one statement, which locks the task's row.
    const task =
      (await takeOpenSlot(tx, { taskId, workerId, now, unless: noLiveReservation(tx, workerId) })) ??
      (await useReservedSlot(tx, { taskId, workerId, now }));
    if (!task) throw await whyNotTakeable(tx, taskId, workerId, now);
    if (notQualified) throw notQualified;
    if (screenshots.length < task.proofImages) {
      const message = `This task asks for ${task.proofImages === 1 ? "a screenshot" : `${task.proofImages} screenshots`} as proof`;
      throw new AppError("VALIDATION", message, { attachments: message });
    }
    if (task.buyerId === workerId) throw new AppError("FORBIDDEN", "You cannot submit work to your own task");

    const submission = tx.insert(submissions).values({
      id,
      taskId,
      workerId,
      buyerId: task.buyerId,
      details,
      attachments,
      createdAt: now,
      autoApproveAt: new Date(now.getTime() + autoApproveDays * DAY_MS),
    });
    const workerName = sql`(select ${users.name} from ${users} where ${users.id} = ${workerId})`;
    const message = sql`format(${SUBMITTED_MESSAGE}::text, ${workerName}, ${task.title}::text)`;
    // A reservation the worker made while this submit took a free slot (the slot's statement saw
    // none) is ended as used, and the slot it held returned: one slot per worker, as with it.
    const ended = sql`update ${reservations} set ${sql.identifier(reservations.status.name)} = 'submitted', ${sql.identifier(reservations.endedAt.name)} = ${now.toISOString()}::timestamptz
      where ${liveReservationOf(taskId, workerId)} returning 1`;
    await tx
      .execute(
        sql`with inserted as (${submission.returning({ id: submissions.id }).getSQL()}),
              ended as (${ended}),
              returned as (update ${tasks} set ${sql.identifier(tasks.requiredWorkers.name)} = ${tasks.requiredWorkers} + (select count(*) from ended)
                where ${tasks.id} = ${taskId} and ${tasks.status} = 'open' and exists (select 1 from ended))
            select ${notifySql(task.buyerId, message, paths.dashboard.buyerHome, "work_submitted")},
              ${submissionWebhooksSql({ buyerId: task.buyerId, submissionId: id, taskId, workerId }, "submission.created", now)}
            from inserted`,
      )
      .catch((error: unknown) => {
        // The unique (task, worker) index: this worker has a submission here already; the rollback returns the slot.
        throw isUniqueViolation(error) ? alreadySubmitted() : error;
      });
    return getSubmission(tx, id);
  });
}

/**
 * The slot the worker's reservation holds (rule R20), when they hold one: the task's row is locked
 * first, the order every path that ends a reservation locks in. A reservation past its time is
 * ended and its slot returned, then a free slot is taken as without one. Without a reservation no
 * lock is taken: when many workers submit to a task whose slots ran out, each refusal would else
 * hold the row while it found out why.
 */
async function useReservedSlot(tx: Database, use: { taskId: string; workerId: string; now: Date }) {
  const { taskId, workerId, now } = use;
  const [held] = await tx
    .select({ id: reservations.id })
    .from(reservations)
    .where(liveReservationOf(taskId, workerId));
  if (!held) return undefined;
  const [locked] = await tx
    .select({ buyerId: tasks.buyerId, title: tasks.title, proofImages: tasks.proofImages })
    .from(tasks)
    .where(
      and(
        eq(tasks.id, taskId),
        isNull(tasks.deletedAt),
        eq(tasks.status, "open"),
        gte(tasks.completionDate, isoDate(now)),
      ),
    )
    .for("update");
  if (!locked) return undefined;
  return (await useReservation(tx, use)) ? locked : takeOpenSlot(tx, use);
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
