import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import {
  paths,
  withdrawalDollars,
  type Page,
  type PageQuery,
  type Withdrawal,
  type WithdrawalRequest,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { users, withdrawals } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { recordAudit } from "../admin/audit.ts";
import { PAYOUT, holdOf, openAccount, transfer, walletOf } from "../ledger/service.ts";
import { notify } from "../notifications/service.ts";
import { newestFirstPage } from "../../lib/paging.ts";

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
  };
}

async function getWithdrawal(db: Database, id: string): Promise<Withdrawal> {
  const [row] = await selectWithdrawals(db).where(eq(withdrawals.id, id));
  if (!row) throw notFound("Withdrawal");
  return toWithdrawal(row);
}

/** Rule R10: records the request and holds its coins at once, so no two requests spend the same coins. */
export async function requestWithdrawal(
  db: Database,
  workerId: string,
  request: WithdrawalRequest,
): Promise<Withdrawal> {
  const id = randomUUID();
  await db.transaction(async (tx) => {
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

export type WithdrawalDecision = { approve: true } | { approve: false; reason: string };

/** An admin pays out (hold -> payout) or refuses (hold -> wallet) a pending withdrawal, once; the worker is told. */
export async function decideWithdrawal(
  db: Database,
  request: { adminId: string; withdrawalId: string; decision: WithdrawalDecision; now: Date },
): Promise<Withdrawal> {
  const { adminId, withdrawalId: id, decision, now } = request;
  await db.transaction(async (tx) => {
    const [decided] = await tx
      .update(withdrawals)
      .set({
        status: decision.approve ? "approved" : "rejected",
        reason: decision.approve ? null : decision.reason,
        decidedBy: adminId,
        decidedAt: now,
      })
      .where(and(eq(withdrawals.id, id), eq(withdrawals.status, "pending")))
      .returning();
    if (!decided) {
      const [existing] = await tx
        .select({ status: withdrawals.status })
        .from(withdrawals)
        .where(eq(withdrawals.id, id));
      if (!existing) throw notFound("Withdrawal");
      throw new AppError("ALREADY_DECIDED", `This withdrawal was already ${existing.status}`);
    }
    await recordAudit(tx, {
      actorId: adminId,
      action: decision.approve ? "approve_withdrawal" : "reject_withdrawal",
      targetType: "withdrawal",
      targetId: id,
      before: { status: "pending" },
      after: { status: decided.status, ...(decision.approve ? {} : { reason: decision.reason }) },
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
        message: `Your withdrawal of ${decided.coins} coins ($${dollars}) was rejected: ${decision.reason}. The coins are back in your balance.`,
        actionRoute: paths.dashboard.withdrawals,
      });
    }
  });
  return getWithdrawal(db, id);
}

export async function listWithdrawals(
  db: Database,
  filter: { workerId?: string; status?: Withdrawal["status"] },
  page: PageQuery,
): Promise<Page<Withdrawal>> {
  const where = and(
    filter.workerId ? eq(withdrawals.workerId, filter.workerId) : undefined,
    filter.status ? eq(withdrawals.status, filter.status) : undefined,
  );
  const view = { table: withdrawals, select: selectWithdrawals, toItem: toWithdrawal };
  return newestFirstPage(db, view, where, page);
}
