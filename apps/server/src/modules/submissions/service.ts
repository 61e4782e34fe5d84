import { randomUUID } from "node:crypto";
import { and, desc, eq, exists, getTableColumns, gte, isNull, lte, notExists, sql } from "drizzle-orm";
import {
  isoDate,
  MAX_PROOF_IMAGES,
  paths,
  type Page,
  type PageQuery,
  type AppealStatus,
  type Submission,
  type SubmissionStatus,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import {
  appeals,
  reservations,
  submissions,
  tasks,
  users,
  workerReputations,
} from "../../db/schema/index.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { countAll, newestFirstPage, offsetPage } from "../../lib/paging.ts";
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
import { liveReservationOf, useReservation } from "../reservations/service.ts";
import { takeOpenSlot } from "../../core/slots.ts";
import { whyNotQualified } from "../trust/service.ts";
import { processImage, storeImage } from "../uploads/service.ts";
import { buyers, selectSubmissions, submissionColumnsOf, toSubmission, workers } from "./views.ts";

// The read model, for the modules that show submissions (appeals).
export { selectSubmissions, toSubmission } from "./views.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One submission as the API shows it. Prepared: its six-table join took PostgreSQL 1.2 ms to plan
 * each time, more than the query itself (docs/performance.md).
 */
async function getSubmission(db: Database, submissionId: string): Promise<Submission> {
  const statement = preparedStatement(db, "submission_by_id", () =>
    selectSubmissions(db)
      .where(eq(submissions.id, sql.placeholder("id")))
      .prepare("submission_by_id"),
  );
  const [row] = await statement.execute({ id: submissionId });
  if (!row) throw notFound("Submission");
  return toSubmission(row);
}

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
            select ${notifySql(task.buyerId, message, paths.dashboard.buyerHome, "work_submitted")} from inserted`,
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
const EARNED_MESSAGE = "You have earned %s %s from %s for completing %s";

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
      message: `Your submission for "${task.title}" was rejected: ${reason}`,
      actionRoute: paths.dashboard.mySubmissions,
      kind: "work_decided",
    });
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
export interface SubmissionFilter {
  status?: SubmissionStatus;
  appeal?: AppealStatus;
}

async function pagedSubmissions(
  db: Database,
  owner: "workerId" | "buyerId",
  userId: string,
  page: PageQuery,
  filter: SubmissionFilter,
): Promise<Page<Submission>> {
  const where = and(
    eq(submissions[owner], userId),
    filter.status ? eq(submissions.status, filter.status) : undefined,
    filter.appeal
      ? exists(
          db
            .select({ one: sql`1` })
            .from(appeals)
            .where(and(eq(appeals.submissionId, submissions.id), eq(appeals.status, filter.appeal))),
        )
      : undefined,
  );
  if (filter.appeal) {
    const view = { table: submissions, select: selectSubmissions, toItem: toSubmission };
    return newestFirstPage(db, view, where, page);
  }
  // The lists as the dashboards ask for them, prepared: planning the join cost PostgreSQL 2.8 ms
  // a page, three times the page's own work. First pages have no OFFSET: with one as a parameter,
  // PostgreSQL judged its plan for any offset dearer than one for the value at hand, and planned
  // every time (docs/performance.md).
  const list = `submissions_of_${owner}_${filter.status ? "in_status" : "all"}`;
  const listed = () =>
    and(
      eq(submissions[owner], sql.placeholder("userId")),
      filter.status ? eq(submissions.status, sql.placeholder("status")) : undefined,
    );
  const statement = (first: boolean) => {
    const name = `${list}_${first ? "first" : "page"}`;
    return preparedStatement(db, name, () => {
      const query = selectSubmissions(db)
        .where(listed())
        .orderBy(desc(submissions.createdAt), desc(submissions.id))
        .limit(sql.placeholder("limit"));
      return (first ? query : query.offset(sql.placeholder("offset"))).prepare(name);
    });
  };
  const count = preparedStatement(db, `${list}_count`, () =>
    db.select({ total: countAll }).from(submissions).where(listed()).prepare(`${list}_count`),
  );
  const windowed = {
    limit: (limit: number) => ({
      offset: (offset: number) =>
        statement(offset === 0).execute({ userId, status: filter.status, limit, offset }),
    }),
  };
  return offsetPage(db, {
    page,
    table: submissions,
    where,
    rows: windowed,
    toItem: toSubmission,
    count: () => count.execute({ userId, status: filter.status }),
  });
}

export const listWorkerSubmissions = (
  db: Database,
  workerId: string,
  page: PageQuery,
  filter: SubmissionFilter,
) => pagedSubmissions(db, "workerId", workerId, page, filter);

export const listBuyerSubmissions = (
  db: Database,
  buyerId: string,
  page: PageQuery,
  filter: SubmissionFilter,
) => pagedSubmissions(db, "buyerId", buyerId, page, filter);
