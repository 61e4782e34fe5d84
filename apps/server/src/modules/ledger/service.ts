import { and, eq, inArray, isNotNull, lt, ne, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { LedgerReport } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import {
  ledgerAccounts,
  ledgerTransfers,
  reservations,
  submissions,
  tasks,
  users,
  withdrawals,
  type LedgerAccountKind,
} from "../../db/schema/index.ts";
import { rowsOf, sqlStateOf } from "../../lib/db-errors.ts";
import { insufficientCoins } from "../../lib/errors.ts";

// The only module that changes balances (product rules M1-M4); the benchmark seed alone
// writes transfers in bulk, and checks the ledger afterwards.

export const MINT = "mint";
export const PAYOUT = "payout";
export const walletOf = (userId: string) => `wallet:${userId}`;
export const escrowOf = (taskId: string) => `escrow:${taskId}`;
export const holdOf = (withdrawalId: string) => `hold:${withdrawalId}`;

/**
 * The cause of a transfer the platform makes from the mint when an admin overturns a rejection
 * the buyer cannot fund (rule R22): its own kind, totalled in the ledger report.
 */
export const PLATFORM_APPEAL_PAYMENT = "appeal-platform:";

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

/** Opens many escrow accounts in one statement (a batch of tasks, decision 036). */
export async function openEscrows(db: Database, taskIds: string[]): Promise<void> {
  if (taskIds.length === 0) return;
  await db
    .insert(ledgerAccounts)
    .values(taskIds.map((id) => ({ kind: "escrow" as const, ownerKey: escrowOf(id), userId: null })))
    .onConflictDoNothing({ target: ledgerAccounts.ownerKey });
}

/**
 * Funds new tasks' escrows from their buyer's wallet (a batch, decision 036): one transfer per
 * task, all made by ledger_transfer_many (migration 0029) as one set, so 5,000 take one
 * statement; more than the wallet holds is 409 INSUFFICIENT_COINS and nothing moves.
 */
export async function fundEscrows(
  db: Database,
  funding: { buyerId: string; tasks: { id: string; amount: number }[] },
): Promise<void> {
  if (funding.tasks.length === 0) return;
  const targets = funding.tasks.map(({ id, amount }) => ({
    key: escrowOf(id),
    amount,
    transfer_key: `task-fund:${id}`,
  }));
  try {
    await db.execute(
      sql`select ledger_transfer_many(${walletOf(funding.buyerId)}, ${JSON.stringify(targets)}::jsonb)`,
    );
  } catch (error) {
    throw asLedgerError(error);
  }
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
 * transaction (so the caller's domain change and the transfer commit together) or on its
 * own. Throws INSUFFICIENT_COINS, writing nothing, when a non-mint account would go below
 * zero.
 */
export async function transfer(db: Database, request: TransferRequest): Promise<{ applied: boolean }> {
  const { amount } = request;
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new Error(`transfer amount must be a positive integer, got ${amount}`);
  if (request.from === request.to) throw new Error("transfer needs two different accounts");
  try {
    const [row] = rowsOf<{ applied: boolean }>(
      await db.execute(sql`select ${transferSql(request)} as applied`),
    );
    return { applied: row?.applied === true };
  } catch (error) {
    throw asLedgerError(error);
  }
}

/** What ledger_transfer (migration 0010) raises when a non-mint account would go below zero. */
const INSUFFICIENT_COINS_STATE = "TM001";

/** A database error from a statement that made a transfer, as the API error it means. */
export function asLedgerError(error: unknown): unknown {
  return sqlStateOf(error) === INSUFFICIENT_COINS_STATE ? insufficientCoins() : error;
}

type SqlValue<T> = T | SQLWrapper;

/**
 * A transfer as an SQL expression (true when it moved the coins, false for a repeat), for a
 * domain action that does all its work in one statement. The database function locks both
 * accounts in id order and checks the source's balance, as `transfer` does.
 */
export function transferSql(request: {
  from: SqlValue<string>;
  to: SqlValue<string>;
  amount: SqlValue<number>;
  idempotencyKey: SqlValue<string>;
}): SQL {
  return sql`ledger_transfer(${request.from}, ${request.to}, ${request.amount}::bigint, ${request.idempotencyKey})`;
}

/** walletOf and escrowOf for a user or task id held in a column or an expression. */
export const walletKeySql = (userId: SQLWrapper) => sql`${walletOf("")} || ${userId}`;
export const escrowKeySql = (taskId: SQLWrapper) => sql`${escrowOf("")} || ${taskId}`;

/** The balance of one account, 0 when it does not exist, locked until the caller's transaction ends. */
export async function lockedBalanceOf(db: Database, ownerKey: string): Promise<number> {
  const [row] = await db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.ownerKey, ownerKey))
    .for("update");
  return row?.balance ?? 0;
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

/**
 * Checks the invariants of rule M3 and sums the coins by where they are: balances sum
 * to zero, each cached balance equals its transfers, none but the mint is negative,
 * each task's escrow holds payable_amount x (open slots + live reservations + pending
 * submissions, rule R20), and no
 * deleted user's wallet or withdrawal hold keeps coins (rule R12, decision 010).
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
    platform_paid: await platformPaid(db),
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
        .select({
          accountId: ledgerTransfers.fromAccountId,
          amount: sql<number>`-${ledgerTransfers.amount}`.as("amount"),
        })
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

  // The statement reads each transfer's balances after it: they must be its accounts' running sums.
  const unchained = rowsOf<{ owner_key: string; id: string; recorded: string; running: string }>(
    await db.execute(sql`
      with movements as (
        select id, to_account_id as account_id, amount as delta, to_balance_after as recorded from ledger_transfers
        union all
        select id, from_account_id, -amount, from_balance_after from ledger_transfers
      ), running as (
        select account_id, id, recorded, sum(delta) over (partition by account_id order by id) as running
        from movements
      )
      select a.owner_key, r.id, r.recorded, r.running
      from running r join ledger_accounts a on a.id = r.account_id
      where r.recorded <> r.running order by r.id limit 10`),
  );
  for (const row of unchained) {
    report.problems.push(
      `transfer ${row.id} records ${row.recorded} after it on ${row.owner_key}, but its transfers sum to ${row.running}`,
    );
  }

  // Rule R20: a slot is open, held by a live reservation, or taken by a pending submission.
  const takenSlots = db
    .select({ taskId: submissions.taskId })
    .from(submissions)
    .where(eq(submissions.status, "pending"))
    .unionAll(
      db.select({ taskId: reservations.taskId }).from(reservations).where(eq(reservations.status, "active")),
    )
    .as("taken_slots");
  const pending = db
    .select({ taskId: takenSlots.taskId, count: sql<number>`count(*)`.as("count") })
    .from(takenSlots)
    .groupBy(takenSlots.taskId)
    .as("pending");
  const owed = sql<string>`${tasks.payableAmount} * (${tasks.requiredWorkers} + coalesce(${pending.count}, 0))`;
  const misfunded = await db
    .select({ taskId: tasks.id, escrow: ledgerAccounts.balance, owed })
    .from(tasks)
    .leftJoin(ledgerAccounts, eq(ledgerAccounts.ownerKey, escrowKeySql(tasks.id)))
    .leftJoin(pending, eq(pending.taskId, tasks.id))
    .where(sql`coalesce(${ledgerAccounts.balance}, 0) <> ${owed}`);
  for (const row of misfunded) {
    report.problems.push(
      `task ${row.taskId} escrow holds ${row.escrow ?? 0} but owes ${row.owed} (open slots + live reservations + pending submissions)`,
    );
  }

  for (const row of await strandedAccounts(db)) {
    report.problems.push(`${row.ownerKey} of deleted user ${row.userId} still holds ${row.balance}`);
  }

  report.ok = report.problems.length === 0;
  return report;
}

async function platformPaid(db: Database): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerTransfers.amount}), 0)` })
    .from(ledgerTransfers)
    .where(sql`${ledgerTransfers.idempotencyKey} like ${`${PLATFORM_APPEAL_PAYMENT}%`}`);
  return Number(row?.total ?? 0);
}

/** Wallets and withdrawal holds of deleted users that still hold coins: coins no one can use. */
async function strandedAccounts(db: Database) {
  const deleted = isNotNull(users.deletedAt);
  const wallets = db
    .select({ ownerKey: ledgerAccounts.ownerKey, userId: users.id, balance: ledgerAccounts.balance })
    .from(users)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.ownerKey, walletKeySql(users.id)))
    .where(and(deleted, ne(ledgerAccounts.balance, 0)));
  const holds = db
    .select({ ownerKey: ledgerAccounts.ownerKey, userId: users.id, balance: ledgerAccounts.balance })
    .from(users)
    .innerJoin(withdrawals, eq(withdrawals.workerId, users.id))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.ownerKey, sql`${holdOf("")} || ${withdrawals.id}`))
    .where(and(deleted, ne(ledgerAccounts.balance, 0)));
  return wallets.unionAll(holds);
}
