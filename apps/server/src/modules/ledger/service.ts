import { and, eq, inArray, lt, ne, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Database } from "../../db/client.ts";
import { ledgerAccounts, ledgerTransfers, submissions, tasks, type LedgerAccountKind } from "../../db/schema/index.ts";
import { insufficientCoins } from "../../lib/errors.ts";

// The only module that changes balances (product rules M1-M4).

export const MINT = "mint";
export const PAYOUT = "payout";
export const walletOf = (userId: string) => `wallet:${userId}`;
export const escrowOf = (taskId: string) => `escrow:${taskId}`;
export const holdOf = (withdrawalId: string) => `hold:${withdrawalId}`;

/** Creates the account if it does not exist yet; safe to repeat. */
export async function openAccount(
  db: Database,
  account: { kind: Exclude<LedgerAccountKind, "mint" | "payout">; ownerKey: string; userId?: string },
): Promise<void> {
  await db
    .insert(ledgerAccounts)
    .values({ kind: account.kind, ownerKey: account.ownerKey, userId: account.userId ?? null })
    .onConflictDoNothing({ target: ledgerAccounts.ownerKey });
}

export interface TransferRequest {
  /** Owner keys of the two accounts (see walletOf, escrowOf, ...). */
  from: string;
  to: string;
  amount: number;
  /** Names the cause; a second transfer with the same key is a no-op. */
  idempotencyKey: string;
}

/**
 * Moves `amount` coins between two accounts, once per idempotency key, in the caller's
 * transaction (so the caller's domain change and the transfer commit together) or a
 * transaction of its own. Throws INSUFFICIENT_COINS, before writing anything, when a
 * non-mint account would go below zero.
 */
export async function transfer(db: Database, request: TransferRequest): Promise<{ applied: boolean }> {
  const { from, to, amount, idempotencyKey } = request;
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`transfer amount must be a positive integer, got ${amount}`);
  if (from === to) throw new Error("transfer needs two different accounts");

  return inTransaction(db, async (tx) => {
    // Lock both rows in id order, so concurrent transfers queue instead of deadlocking.
    const locked = await tx
      .select({ id: ledgerAccounts.id, ownerKey: ledgerAccounts.ownerKey, kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.ownerKey, [from, to]))
      .orderBy(ledgerAccounts.id)
      .for("update");
    const source = locked.find((account) => account.ownerKey === from);
    const target = locked.find((account) => account.ownerKey === to);
    if (!source || !target) throw new Error(`ledger account missing: ${!source ? from : to}`);

    if (source.kind !== "mint" && source.balance < amount) {
      // A repeat of a transfer that already happened is still a no-op, whatever the balance now.
      const [done] = await tx.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, idempotencyKey));
      if (done) return { applied: false };
      throw insufficientCoins();
    }
    const inserted = await tx
      .insert(ledgerTransfers)
      .values({ idempotencyKey, fromAccountId: source.id, toAccountId: target.id, amount })
      .onConflictDoNothing({ target: ledgerTransfers.idempotencyKey })
      .returning({ id: ledgerTransfers.id });
    if (inserted.length === 0) return { applied: false };

    // Both balances in one statement.
    await tx
      .update(ledgerAccounts)
      .set({ balance: sql`${ledgerAccounts.balance} + case when ${ledgerAccounts.id} = ${target.id} then ${amount}::bigint else ${-amount}::bigint end` })
      .where(inArray(ledgerAccounts.id, [source.id, target.id]));
    return { applied: true };
  });
}

/** Runs `work` in the caller's transaction, or opens one when given the database itself. */
function inTransaction<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return (db as unknown) instanceof PgTransaction ? work(db) : db.transaction(work);
}

/** The balance of one account, 0 when it does not exist. */
export async function balanceOf(db: Database, ownerKey: string): Promise<number> {
  const [row] = await db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.ownerKey, ownerKey));
  return row?.balance ?? 0;
}

/** Balances of several users' wallets, keyed by user id. */
export async function walletBalances(db: Database, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: ledgerAccounts.userId, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, "wallet"), inArray(ledgerAccounts.userId, userIds)));
  return new Map(rows.map((row) => [row.userId ?? "", row.balance]));
}

export interface LedgerReport {
  ok: boolean;
  issued: number;
  wallets: number;
  escrow: number;
  held: number;
  paid_out: number;
  problems: string[];
}

/**
 * Checks the invariants of rule M3 and sums the coins by where they are: balances sum
 * to zero, each cached balance equals its transfers, none but the mint is negative,
 * and each task's escrow holds payable_amount x (open slots + pending submissions).
 */
export async function checkLedger(db: Database): Promise<LedgerReport> {
  const totals = await db
    .select({ kind: ledgerAccounts.kind, total: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)` })
    .from(ledgerAccounts)
    .groupBy(ledgerAccounts.kind);
  const totalOf = (kind: LedgerAccountKind) => Number(totals.find((row) => row.kind === kind)?.total ?? 0);
  const report: LedgerReport = {
    ok: true,
    issued: -totalOf("mint"),
    wallets: totalOf("wallet"),
    escrow: totalOf("escrow"),
    held: totalOf("hold"),
    paid_out: totalOf("payout"),
    problems: [],
  };

  const sumOfAll = report.wallets + report.escrow + report.held + report.paid_out - report.issued;
  if (sumOfAll !== 0) report.problems.push(`balances sum to ${sumOfAll}, not 0`);

  const negative = await db
    .select({ ownerKey: ledgerAccounts.ownerKey, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(ne(ledgerAccounts.kind, "mint"), lt(ledgerAccounts.balance, 0)));
  for (const row of negative) report.problems.push(`${row.ownerKey} is below zero (${row.balance})`);

  const movements = db
    .select({ accountId: ledgerTransfers.toAccountId, amount: ledgerTransfers.amount })
    .from(ledgerTransfers)
    .unionAll(
      db
        .select({ accountId: ledgerTransfers.fromAccountId, amount: sql<number>`-${ledgerTransfers.amount}`.as("amount") })
        .from(ledgerTransfers),
    )
    .as("movements");
  const drifted = await db
    .select({
      ownerKey: ledgerAccounts.ownerKey,
      balance: ledgerAccounts.balance,
      computed: sql<string>`coalesce(sum(${movements.amount}), 0)`,
    })
    .from(ledgerAccounts)
    .leftJoin(movements, eq(movements.accountId, ledgerAccounts.id))
    .groupBy(ledgerAccounts.id)
    .having(sql`${ledgerAccounts.balance} <> coalesce(sum(${movements.amount}), 0)`);
  for (const row of drifted) {
    report.problems.push(`${row.ownerKey} caches ${row.balance} but its transfers sum to ${row.computed}`);
  }

  const pending = db
    .select({ taskId: submissions.taskId, count: sql<number>`count(*)`.as("count") })
    .from(submissions)
    .where(eq(submissions.status, "pending"))
    .groupBy(submissions.taskId)
    .as("pending");
  const owed = sql<string>`${tasks.payableAmount} * (${tasks.requiredWorkers} + coalesce(${pending.count}, 0))`;
  const misfunded = await db
    .select({ taskId: tasks.id, escrow: ledgerAccounts.balance, owed })
    .from(tasks)
    .leftJoin(ledgerAccounts, eq(ledgerAccounts.ownerKey, sql`'escrow:' || ${tasks.id}`))
    .leftJoin(pending, eq(pending.taskId, tasks.id))
    .where(sql`coalesce(${ledgerAccounts.balance}, 0) <> ${owed}`);
  for (const row of misfunded) {
    report.problems.push(`task ${row.taskId} escrow holds ${row.escrow ?? 0} but owes ${row.owed} (open slots + pending submissions)`);
  }

  report.ok = report.problems.length === 0;
  return report;
}
