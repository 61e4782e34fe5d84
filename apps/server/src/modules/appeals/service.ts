import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import {
  DAY_MS,
  APPEAL_ANSWER_DAYS,
  appealDeadline,
  APPEAL_WINDOW_DAYS,
  coinCount,
  paths,
  type AppealStatus,
  type Page,
  type PageQuery,
  type AppealCase,
  type Submission,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { appeals, submissions, tasks, users } from "../../db/schema/index.ts";
import { AppError, insufficientCoins, notFound } from "../../lib/errors.ts";
import { offsetPage } from "../../lib/paging.ts";
import { recordAudit } from "../../core/audit.ts";
import {
  escrowOf,
  lockedBalanceOf,
  MINT,
  PLATFORM_APPEAL_PAYMENT,
  transfer,
  walletOf,
} from "../ledger/service.ts";
import { asSentence, notify } from "../notifications/service.ts";
import { queueSubmissionWebhooks } from "../webhooks/service.ts";
import {
  selectAppealCases,
  selectSubmissions,
  submissionFacts,
  toAppealCase,
  toSubmission,
} from "../submissions/service.ts";

// Rule R22: a worker appeals a rejection once, within 7 days; the buyer overturns or upholds;
// after an uphold, or 3 days without an answer, the worker may escalate to the admins, whose
// decision is final. Every step is one conditional update of the appeal's status, so two
// deciders racing (the buyer and an admin, two admins) change it once, and the loser gets 409.

const appealClosed = (message: string) => new AppError("APPEAL_CLOSED", message);

async function readSubmission(db: Database, submissionId: string): Promise<Submission> {
  const [row] = await selectSubmissions(db).where(eq(submissions.id, submissionId));
  if (!row) throw notFound("Submission");
  return toSubmission(row);
}

/** The submission with its task's title, for checks and messages; 404 when missing. */
const notYours = () => new AppError("FORBIDDEN", "This submission is not yours");
const notYourTask = () => new AppError("FORBIDDEN", "This submission is not for one of your tasks");

/** The worker appeals their rejected submission: once, within APPEAL_WINDOW_DAYS of the rejection. */
export async function appealRejection(
  db: Database,
  appeal: { workerId: string; submissionId: string; message: string; now: Date },
): Promise<Submission> {
  const { workerId, submissionId, message, now } = appeal;
  await db.transaction(async (tx) => {
    const submission = await submissionFacts(tx, submissionId);
    if (submission.workerId !== workerId) throw notYours();
    if (submission.appealStatus) throw appealClosed("You have already appealed this rejection");
    if (submission.status !== "rejected" || !submission.decidedAt)
      throw appealClosed("Only a rejected submission can be appealed");
    if (now.getTime() > appealDeadline(submission.decidedAt).getTime())
      throw appealClosed(
        `A rejection can be appealed within ${APPEAL_WINDOW_DAYS} days; that time has passed`,
      );
    const [created] = await tx
      .insert(appeals)
      .values({ submissionId, buyerId: submission.buyerId, message, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: appeals.submissionId });
    // A racing request of the same worker stored it first.
    if (!created) throw appealClosed("You have already appealed this rejection");
    await notify(tx, {
      userId: submission.buyerId,
      message: `${submission.workerName} appealed your rejection of their work for "${submission.taskTitle}"`,
      actionRoute: paths.dashboard.buyerHome,
      kind: "appeal_updates",
    });
    await queueSubmissionWebhooks(tx, { ...submission, submissionId, now }, "submission.appealed");
  });
  return readSubmission(db, submissionId);
}

/** Why a step found the appeal in none of the states it moves on from. */
async function whyNotMoved(
  db: Database,
  submissionId: string,
  actor: { workerId: string } | { buyerId: string } | "admin",
): Promise<AppError> {
  const submission = await submissionFacts(db, submissionId);
  if (typeof actor === "object" && "workerId" in actor && submission.workerId !== actor.workerId)
    return notYours();
  if (typeof actor === "object" && "buyerId" in actor && submission.buyerId !== actor.buyerId)
    return notYourTask();
  const status = submission.appealStatus;
  if (!status) return notFound("Appeal");
  return appealClosed(APPEAL_STATE_MESSAGES[status]);
}

const APPEAL_STATE_MESSAGES: Record<AppealStatus, string> = {
  open: "This appeal is waiting for the buyer's answer",
  upheld_by_buyer: "The buyer has upheld this rejection; the worker may escalate it",
  escalated: "This appeal is with the admins",
  overturned: "This appeal was already decided: the rejection was overturned",
  upheld: "This appeal was already decided by the admins",
};

/** The buyer keeps the rejection, with an answer the worker reads. Only an open appeal. */
export async function upholdByBuyer(
  db: Database,
  uphold: { buyerId: string; submissionId: string; answer: string; now: Date },
): Promise<Submission> {
  const { buyerId, submissionId, answer, now } = uphold;
  await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(appeals)
      .set({ status: "upheld_by_buyer", answer, answeredAt: now })
      .where(
        and(eq(appeals.submissionId, submissionId), eq(appeals.buyerId, buyerId), eq(appeals.status, "open")),
      )
      .returning({ id: appeals.submissionId });
    if (!moved) throw await whyNotMoved(tx, submissionId, { buyerId });
    const submission = await submissionFacts(tx, submissionId);
    await notify(tx, {
      userId: submission.workerId,
      message: `The buyer kept the rejection of your work for "${submission.taskTitle}": ${asSentence(answer)} You can escalate it to the admins.`,
      actionRoute: paths.dashboard.mySubmissions,
      kind: "appeal_updates",
    });
  });
  return readSubmission(db, submissionId);
}

/** The worker takes the appeal to the admins: after the buyer upheld it, or after 3 days without an answer. */
export async function escalateAppeal(
  db: Database,
  escalation: { workerId: string; submissionId: string; now: Date },
): Promise<Submission> {
  const { workerId, submissionId, now } = escalation;
  await db.transaction(async (tx) => {
    const submission = await submissionFacts(tx, submissionId);
    if (submission.workerId !== workerId) throw notYours();
    const unanswered = new Date(now.getTime() - APPEAL_ANSWER_DAYS * DAY_MS);
    const [moved] = await tx
      .update(appeals)
      .set({ status: "escalated", escalatedAt: now })
      .where(
        and(
          eq(appeals.submissionId, submissionId),
          or(
            eq(appeals.status, "upheld_by_buyer"),
            and(eq(appeals.status, "open"), lte(appeals.createdAt, unanswered)),
          ),
        ),
      )
      .returning({ id: appeals.submissionId });
    if (!moved) {
      if (submission.appealStatus === "open")
        throw appealClosed(`The buyer has ${APPEAL_ANSWER_DAYS} days to answer before you can escalate`);
      throw await whyNotMoved(tx, submissionId, { workerId });
    }
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, "admin"), isNull(users.deletedAt)));
    for (const admin of admins) {
      await notify(tx, {
        userId: admin.id,
        message: `${submission.workerName} escalated an appeal about "${submission.taskTitle}"`,
        actionRoute: paths.dashboard.appeals,
        kind: "appeal_updates",
      });
    }
  });
  return readSubmission(db, submissionId);
}

type Decider = { buyerId: string } | { adminId: string };

/**
 * Overturns the rejection: the appeal closes as overturned, the submission becomes approved and
 * the worker is paid once. The pay comes from the task's escrow, taking one of its open slots,
 * when it has one; else from the buyer's wallet; when that cannot pay, a buyer is refused
 * (409 INSUFFICIENT_COINS, nothing changes) and an admin's decision is paid by the platform.
 * The task's row is locked first (the order of submit, reject and delete), so a task deleted or
 * filled meanwhile is seen as it is.
 */
export async function overturnAppeal(
  db: Database,
  overturn: { decider: Decider; submissionId: string; answer?: string; now: Date },
): Promise<Submission> {
  const { decider, submissionId, now } = overturn;
  const byAdmin = "adminId" in decider;
  await db.transaction(async (tx) => {
    const facts = await submissionFacts(tx, submissionId);
    const [task] = await tx.select().from(tasks).where(eq(tasks.id, facts.taskId)).for("update");
    if (!task) throw notFound("Task");
    const [moved] = await tx
      .update(appeals)
      .set({
        status: "overturned",
        decidedAt: now,
        decidedBy: byAdmin ? "admin" : "buyer",
        ...(overturn.answer ? { answer: overturn.answer } : {}),
      })
      .where(
        and(
          eq(appeals.submissionId, submissionId),
          byAdmin
            ? eq(appeals.status, "escalated")
            : and(
                eq(appeals.buyerId, decider.buyerId),
                inArray(appeals.status, ["open", "upheld_by_buyer", "escalated"]),
              ),
        ),
      )
      .returning({ id: appeals.submissionId });
    if (!moved) throw await whyNotMoved(tx, submissionId, byAdmin ? "admin" : decider);
    const [worker] = await tx
      .select({ deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, facts.workerId));
    if (worker?.deletedAt)
      throw new AppError("CONFLICT", "The worker's account was deleted: nothing can be paid");
    const [approved] = await tx
      .update(submissions)
      .set({ status: "approved" })
      .where(and(eq(submissions.id, submissionId), eq(submissions.status, "rejected")))
      .returning({ id: submissions.id });
    // Only a rejected submission gets an appeal, and only an overturn approves it.
    if (!approved) throw new Error(`appealed submission ${submissionId} is no longer rejected`);

    const paidFrom = await payOverturn(tx, { task, submissionId, workerId: facts.workerId, byAdmin });
    await tx.update(appeals).set({ paidFrom }).where(eq(appeals.submissionId, submissionId));
    const coins = coinCount(task.payableAmount);
    await notify(tx, {
      userId: facts.workerId,
      message: `Your appeal about "${task.title}" was accepted: you were paid ${coins}`,
      actionRoute: paths.dashboard.mySubmissions,
      kind: "appeal_updates",
    });
    if (byAdmin) {
      await notify(tx, {
        userId: task.buyerId,
        message: `An admin overturned your rejection of ${facts.workerName}'s work for "${task.title}"`,
        actionRoute: paths.dashboard.buyerHome,
        kind: "appeal_updates",
      });
      await recordAudit(tx, {
        actorId: decider.adminId,
        action: "decide_appeal",
        targetType: "submission",
        targetId: submissionId,
        before: { appeal: "escalated", status: "rejected" },
        after: { appeal: "overturned", status: "approved", paid_from: paidFrom, coins: task.payableAmount },
      });
    }
  });
  return readSubmission(db, submissionId);
}

async function payOverturn(
  db: Database,
  payment: { task: typeof tasks.$inferSelect; submissionId: string; workerId: string; byAdmin: boolean },
): Promise<"escrow" | "buyer" | "platform"> {
  const { task, submissionId, byAdmin } = payment;
  const amount = task.payableAmount;
  // The same cause as an approval's, except for the platform's own kind: a submission is paid once.
  let source: { paidFrom: "escrow" | "buyer" | "platform"; from: string; idempotencyKey: string };
  if (task.status === "open" && task.requiredWorkers > 0) {
    await db
      .update(tasks)
      .set({ requiredWorkers: sql`${tasks.requiredWorkers} - 1` })
      .where(eq(tasks.id, task.id));
    source = { paidFrom: "escrow", from: escrowOf(task.id), idempotencyKey: `approve:${submissionId}` };
  } else if ((await lockedBalanceOf(db, walletOf(task.buyerId))) >= amount) {
    source = { paidFrom: "buyer", from: walletOf(task.buyerId), idempotencyKey: `approve:${submissionId}` };
  } else if (byAdmin) {
    source = {
      paidFrom: "platform",
      from: MINT,
      idempotencyKey: `${PLATFORM_APPEAL_PAYMENT}${submissionId}`,
    };
  } else {
    throw insufficientCoins();
  }
  const { applied } = await transfer(db, {
    from: source.from,
    to: walletOf(payment.workerId),
    amount,
    idempotencyKey: source.idempotencyKey,
  });
  // The appeal's conditional update let one decider through: a repeat payment means a broken guard.
  if (!applied) throw new Error(`overturned submission ${submissionId} was already paid`);
  return source.paidFrom;
}

/** The admins keep the rejection, finally, with an answer both sides read. */
export async function upholdByAdmin(
  db: Database,
  uphold: { adminId: string; submissionId: string; answer: string; now: Date },
): Promise<Submission> {
  const { adminId, submissionId, answer, now } = uphold;
  await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(appeals)
      .set({ status: "upheld", answer, decidedAt: now, decidedBy: "admin" })
      .where(and(eq(appeals.submissionId, submissionId), eq(appeals.status, "escalated")))
      .returning({ id: appeals.submissionId });
    if (!moved) throw await whyNotMoved(tx, submissionId, "admin");
    const facts = await submissionFacts(tx, submissionId);
    await notify(tx, {
      userId: facts.workerId,
      message: `The admins kept the rejection of your work for "${facts.taskTitle}", finally: ${asSentence(answer)}`,
      actionRoute: paths.dashboard.mySubmissions,
      kind: "appeal_updates",
    });
    await recordAudit(tx, {
      actorId: adminId,
      action: "decide_appeal",
      targetType: "submission",
      targetId: submissionId,
      before: { appeal: "escalated", status: "rejected" },
      after: { appeal: "upheld", status: "rejected", answer },
    });
  });
  return readSubmission(db, submissionId);
}

/** The admins' queue: escalated appeals, the longest waiting first. */
export function listEscalatedAppeals(db: Database, page: PageQuery): Promise<Page<AppealCase>> {
  const where = eq(appeals.status, "escalated");
  return offsetPage(db, {
    page,
    table: appeals,
    where,
    rows: selectAppealCases(db).where(where).orderBy(asc(appeals.escalatedAt), asc(appeals.submissionId)),
    toItem: toAppealCase,
  });
}
