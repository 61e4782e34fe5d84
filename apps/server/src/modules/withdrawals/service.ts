import { randomUUID } from "node:crypto";
import { and, eq, exists, ilike, inArray, or } from "drizzle-orm";
import {
  paths,
  withdrawalDollars,
  type Page,
  type PageQuery,
  type Withdrawal,
  type WithdrawalApproval,
  type WithdrawalRequest,
  type WithdrawalStatus,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { users, withdrawals } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { recordAudit } from "../../core/audit.ts";
import { PAYOUT, holdOf, openAccount, transfer, walletOf } from "../ledger/service.ts";
import { asSentence, notify } from "../notifications/service.ts";
import { newestFirstPage } from "../../lib/paging.ts";
import { containsPattern } from "../../lib/like.ts";
import { withdrawalRisk } from "./risk.ts";

// The risk signals, for the admin's queue.
export { withdrawalRisk } from "./risk.ts";

const selectWithdrawals = (db: Database) =>
  db
    .select({ withdrawal: withdrawals, workerName: users.name, workerEmail: users.email })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.workerId));

type WithdrawalRow = Awaited<ReturnType<ReturnType<typeof selectWithdrawals>["execute"]>>[number];

function toWithdrawal({ withdrawal, workerName, workerEmail }: WithdrawalRow): Withdrawal {
  return {
    id: withdrawal.id,
    worker_email: workerEmail,
    worker_name: workerName,
    withdrawal_coin: withdrawal.coins,
    withdrawal_amount: withdrawal.amountCents / 100,
    payment_system: withdrawal.paymentSystem,
    account_number: withdrawal.accountNumber,
    withdraw_date: withdrawal.createdAt.toISOString(),
    status: withdrawal.status,
    ...(withdrawal.status === "rejected" && withdrawal.reason ? { reason: withdrawal.reason } : {}),
    createdAt: withdrawal.createdAt.toISOString(),
    ...(withdrawal.decidedAt ? { decided_at: withdrawal.decidedAt.toISOString() } : {}),
    payout_reference: withdrawal.payoutReference,
    events: [
      { status: "pending", at: withdrawal.createdAt.toISOString() },
      ...(withdrawal.decidedAt
        ? [{ status: withdrawal.status, at: withdrawal.decidedAt.toISOString() }]
        : []),
    ],
  };
}

/** An admin's view adds the risk of a withdrawal still waiting for a decision. */
async function withRisk(db: Database, row: WithdrawalRow): Promise<Withdrawal> {
  const withdrawal = toWithdrawal(row);
  if (row.withdrawal.status !== "pending") return withdrawal;
  return { ...withdrawal, risk: await withdrawalRisk(db, row.withdrawal) };
}

async function getWithdrawal(db: Database, id: string): Promise<Withdrawal> {
  const [row] = await selectWithdrawals(db).where(eq(withdrawals.id, id));
  if (!row) throw notFound("Withdrawal");
  return toWithdrawal(row);
}

/** Rule R10: records the request and holds its coins at once, so no two requests spend the same coins. */
/** Rule R28: a worker confirms their email address before their first withdrawal is paid. */
/** Rule R25: money goes out only to a confirmed email address, or to someone paid before. */
export async function mayBePaidOut(tx: Database, userId: string): Promise<boolean> {
  const [user] = await tx
    .select({
      verified: users.emailVerified,
      paidBefore: exists(
        tx
          .select({ id: withdrawals.id })
          .from(withdrawals)
          .where(and(eq(withdrawals.workerId, userId), eq(withdrawals.status, "approved"))),
      ),
    })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(user?.verified || user?.paidBefore);
}

async function assertMayWithdraw(tx: Database, workerId: string) {
  if (!(await mayBePaidOut(tx, workerId)))
    throw new AppError(
      "EMAIL_NOT_VERIFIED",
      "Confirm your email address before your first withdrawal: open the link we mailed you, or ask for a new one on your dashboard",
    );
}

export async function requestWithdrawal(
  db: Database,
  workerId: string,
  request: WithdrawalRequest,
): Promise<Withdrawal> {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await assertMayWithdraw(tx, workerId);
    await tx.insert(withdrawals).values({
      id,
      workerId,
      coins: request.withdrawal_coin,
      amountCents: Math.round(withdrawalDollars(request.withdrawal_coin) * 100),
      paymentSystem: request.payment_system,
      accountNumber: request.account_number,
    });
    await openAccount(tx, { kind: "hold", ownerKey: holdOf(id) });
    await transfer(tx, {
      from: walletOf(workerId),
      to: holdOf(id),
      amount: request.withdrawal_coin,
      idempotencyKey: `withdraw-hold:${id}`,
    });
  });
  return getWithdrawal(db, id);
}

export type WithdrawalDecision =
  ({ approve: true } & WithdrawalApproval) | { approve: false; reason: string };

/** Ends a pending withdrawal as `status`, once: the loser of a race reads why it cannot. */
async function endPending(
  tx: Database,
  id: string,
  change: { status: Exclude<WithdrawalStatus, "pending">; now: Date } & Partial<
    typeof withdrawals.$inferInsert
  >,
  workerId?: string,
) {
  const { status, now, ...rest } = change;
  const [ended] = await tx
    .update(withdrawals)
    .set({ ...rest, status, decidedAt: now })
    .where(
      and(
        eq(withdrawals.id, id),
        eq(withdrawals.status, "pending"),
        workerId ? eq(withdrawals.workerId, workerId) : undefined,
      ),
    )
    .returning();
  if (ended) return ended;
  const [existing] = await tx
    .select({ status: withdrawals.status, workerId: withdrawals.workerId })
    .from(withdrawals)
    .where(eq(withdrawals.id, id));
  if (!existing || (workerId && existing.workerId !== workerId)) throw notFound("Withdrawal");
  throw new AppError("ALREADY_DECIDED", `This withdrawal was already ${existing.status}`);
}

/**
 * An admin pays out (hold -> payout, under the payout reference) or refuses (hold -> wallet) a
 * pending withdrawal, once; the worker is told. A high risk is paid only when the admin
 * confirms it a second time (decision 017).
 */
export async function decideWithdrawal(
  db: Database,
  request: { adminId: string; withdrawalId: string; decision: WithdrawalDecision; now: Date },
): Promise<Withdrawal> {
  const { adminId, withdrawalId: id, decision, now } = request;
  await db.transaction(async (tx) => {
    // The row locked first: a worker's cancel racing this decision waits, then finds it decided.
    const [pending] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for("update");
    if (!pending) throw notFound("Withdrawal");
    if (decision.approve && pending.status === "pending" && !decision.confirm_high_risk) {
      const risk = await withdrawalRisk(tx, pending);
      if (risk.level === "high")
        throw new AppError(
          "RISK_CONFIRMATION_REQUIRED",
          "This withdrawal looks high-risk; confirm again to pay it anyway",
          { risk },
        );
    }
    const decided = await endPending(tx, id, {
      status: decision.approve ? "approved" : "rejected",
      now,
      reason: decision.approve ? null : decision.reason,
      payoutReference: decision.approve ? (decision.payout_reference ?? null) : null,
      decidedBy: adminId,
    });
    await recordAudit(tx, {
      actorId: adminId,
      action: decision.approve ? "approve_withdrawal" : "reject_withdrawal",
      targetType: "withdrawal",
      targetId: id,
      before: { status: "pending" },
      after: {
        status: decided.status,
        ...(decision.approve
          ? {
              payout_reference: decided.payoutReference,
              ...(decision.confirm_high_risk ? { confirmed_high_risk: true } : {}),
            }
          : { reason: decision.reason }),
      },
    });
    const dollars = (decided.amountCents / 100).toFixed(2);
    if (decision.approve) {
      await transfer(tx, {
        from: holdOf(id),
        to: PAYOUT,
        amount: decided.coins,
        idempotencyKey: `withdraw-pay:${id}`,
      });
      await notify(tx, {
        userId: decided.workerId,
        message: `Your withdrawal of ${decided.coins} coins ($${dollars}) was approved`,
        actionRoute: paths.dashboard.withdrawals,
        kind: "withdrawal_decided",
      });
    } else {
      await transfer(tx, {
        from: holdOf(id),
        to: walletOf(decided.workerId),
        amount: decided.coins,
        idempotencyKey: `withdraw-return:${id}`,
      });
      await notify(tx, {
        userId: decided.workerId,
        message: `Your withdrawal of ${decided.coins} coins ($${dollars}) was rejected and the coins are back in your balance. The reason: ${asSentence(decision.reason)}`,
        actionRoute: paths.dashboard.withdrawals,
        kind: "withdrawal_decided",
      });
    }
  });
  return getWithdrawal(db, id);
}

/** The worker cancels their own pending withdrawal: the held coins return to their balance. */
export async function cancelWithdrawal(
  db: Database,
  request: { workerId: string; withdrawalId: string; now: Date },
): Promise<Withdrawal> {
  const { workerId, withdrawalId: id, now } = request;
  await db.transaction(async (tx) => {
    const cancelled = await endPending(tx, id, { status: "cancelled", now }, workerId);
    await transfer(tx, {
      from: holdOf(id),
      to: walletOf(workerId),
      amount: cancelled.coins,
      idempotencyKey: `withdraw-return:${id}`,
    });
  });
  return getWithdrawal(db, id);
}

/** The worker's own withdrawals, newest first. */
export function listWorkerWithdrawals(
  db: Database,
  workerId: string,
  page: PageQuery,
): Promise<Page<Withdrawal>> {
  const view = { table: withdrawals, select: selectWithdrawals, toItem: toWithdrawal };
  return newestFirstPage(db, view, eq(withdrawals.workerId, workerId), page);
}

/** Every withdrawal for admins, by status and worker name or email, with the risk of each pending one. */
export async function listAllWithdrawals(
  db: Database,
  filter: { status?: WithdrawalStatus; q?: string },
  page: PageQuery,
): Promise<Page<Withdrawal>> {
  const pattern = filter.q ? containsPattern(filter.q) : undefined;
  const matchingWorkers = pattern
    ? db
        .select({ id: users.id })
        .from(users)
        .where(or(ilike(users.name, pattern), ilike(users.email, pattern)))
    : undefined;
  const where = and(
    filter.status ? eq(withdrawals.status, filter.status) : undefined,
    matchingWorkers ? inArray(withdrawals.workerId, matchingWorkers) : undefined,
  );
  const view = { table: withdrawals, select: selectWithdrawals, toItem: (row: WithdrawalRow) => row };
  const rows = await newestFirstPage(db, view, where, page);
  return { ...rows, items: await Promise.all(rows.items.map((row) => withRisk(db, row))) };
}
