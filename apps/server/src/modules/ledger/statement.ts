import { and, eq, inArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { coinCount, type CursorPage, type StatementEntry, type StatementQuery } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { bonuses, ledgerAccounts, submissions, tasks, users, withdrawals } from "../../db/schema/index.ts";
import { rowsOf } from "../../lib/db-errors.ts";
import { decodeCursor, encodeCursor } from "../../lib/keyset.ts";
import { PLATFORM_APPEAL_PAYMENT, walletOf } from "./service.ts";

// A user's coin statement (issue 19): the transfers in and out of their wallet, newest first,
// each with the balance right after it as ledger_transfer wrote it under the wallet's lock.
// What a transfer was is read from its idempotency key, which names its cause.

interface WalletMovement {
  id: number;
  createdAt: Date;
  key: string;
  /** Coins into (+) or out of (-) the wallet. */
  amount: number;
  balanceAfter: number;
}

/**
 * One page of a wallet's movements, newest first, after the cursor's transfer. Two ordered
 * index walks (transfers out, transfers in) merged, so a page costs the same at any depth.
 */
async function walletMovements(db: Database, walletId: number, beforeId: number | null, limit: number) {
  const before = beforeId === null ? sql`` : sql`and id < ${beforeId}`;
  const rows = rowsOf<{
    id: string | number;
    created_at: string | Date;
    idempotency_key: string;
    amount: string | number;
    balance_after: string | number;
  }>(
    await db.execute(sql`
      select id, created_at, idempotency_key, amount, balance_after from (
        (select id, created_at, idempotency_key, -amount as amount, from_balance_after as balance_after
         from ledger_transfers where from_account_id = ${walletId} ${before} order by id desc limit ${limit})
        union all
        (select id, created_at, idempotency_key, amount, to_balance_after as balance_after
         from ledger_transfers where to_account_id = ${walletId} ${before} order by id desc limit ${limit})
      ) movements order by id desc limit ${limit}`),
  );
  return rows.map((row): WalletMovement => ({
    id: Number(row.id),
    createdAt: new Date(row.created_at),
    key: row.idempotency_key,
    amount: Number(row.amount),
    balanceAfter: Number(row.balance_after),
  }));
}

/** A transfer's cause: the key's first part, and the id of what it concerns (the key's last part). */
function causeOf(key: string): { prefix: string; ref: string } {
  const prefix = key.slice(0, key.indexOf(":") + 1);
  return { prefix, ref: key.slice(key.lastIndexOf(":") + 1) };
}

/** What the page's transfers concern, read in one query per kind of thing. */
async function relatedRecords(db: Database, movements: WalletMovement[]) {
  const refsOf = (...prefixes: string[]) =>
    movements
      .map((movement) => causeOf(movement.key))
      .flatMap(({ prefix, ref }) => (prefixes.includes(prefix) ? [ref] : []));
  const taskIds = refsOf("task-fund:", "task-close:");
  const submissionIds = refsOf("approve:", "reject-refund:", PLATFORM_APPEAL_PAYMENT);
  const bonusIds = refsOf("bonus:");
  const withdrawalIds = refsOf("withdraw-hold:", "withdraw-return:");
  const buyer = alias(users, "buyer");
  const worker = alias(users, "worker");
  const [taskRows, submissionRows, withdrawalRows] = await Promise.all([
    taskIds.length === 0
      ? []
      : db.select({ id: tasks.id, title: tasks.title }).from(tasks).where(inArray(tasks.id, taskIds)),
    // A bonus names the same task, buyer and worker as its submission: one query reads both.
    submissionIds.length + bonusIds.length === 0
      ? []
      : db
          .select({
            id: submissions.id,
            bonusId: bonuses.id,
            taskId: submissions.taskId,
            taskTitle: tasks.title,
            buyerName: buyer.name,
            workerName: worker.name,
          })
          .from(submissions)
          .innerJoin(tasks, eq(tasks.id, submissions.taskId))
          .innerJoin(buyer, eq(buyer.id, submissions.buyerId))
          .innerJoin(worker, eq(worker.id, submissions.workerId))
          .leftJoin(bonuses, and(eq(bonuses.submissionId, submissions.id), inArray(bonuses.id, bonusIds)))
          .where(
            or(
              inArray(submissions.id, submissionIds),
              inArray(
                submissions.id,
                db.select({ id: bonuses.submissionId }).from(bonuses).where(inArray(bonuses.id, bonusIds)),
              ),
            ),
          ),
    withdrawalIds.length === 0
      ? []
      : db
          .select({
            id: withdrawals.id,
            status: withdrawals.status,
            paymentSystem: withdrawals.paymentSystem,
            accountNumber: withdrawals.accountNumber,
            amountCents: withdrawals.amountCents,
            reason: withdrawals.reason,
          })
          .from(withdrawals)
          .where(inArray(withdrawals.id, withdrawalIds)),
  ]);
  return {
    tasks: new Map(taskRows.map((row) => [row.id, row])),
    submissions: new Map(submissionRows.map((row) => [row.id, row])),
    bonuses: new Map(submissionRows.flatMap((row) => (row.bonusId ? [[row.bonusId, row] as const] : []))),
    withdrawals: new Map(withdrawalRows.map((row) => [row.id, row])),
  };
}

type Related = Awaited<ReturnType<typeof relatedRecords>>;
type Described = Pick<StatementEntry, "kind" | "description" | "task_id" | "counterparty_name">;

const WITHDRAWAL_OUTCOME = {
  pending: "waiting for an admin",
  approved: "paid",
  rejected: "refused, coins returned",
  cancelled: "cancelled, coins returned",
} as const;

/** What one movement was, in words a statement reader understands. */
function describe(movement: WalletMovement, related: Related): Described {
  const { prefix, ref } = causeOf(movement.key);
  const incoming = movement.amount > 0;
  const quoted = (title: string) => `"${title}"`;
  switch (prefix) {
    case "signup:":
      return { kind: "sign_up_bonus", description: "Welcome bonus" };
    case "purchase:":
    case "seed-purchase:":
      return { kind: "purchase", description: `Bought ${coinCount(movement.amount)}` };
    case "task-fund:":
    case "task-close:": {
      const task = related.tasks.get(ref);
      const title = task ? quoted(task.title) : "a task";
      return prefix === "task-fund:"
        ? { kind: "task_funded", description: `Funded ${title}`, task_id: task?.id }
        : { kind: "task_refund", description: `Unused slots of ${title} refunded`, task_id: task?.id };
    }
    case "reject-refund:": {
      const submission = related.submissions.get(ref);
      return {
        kind: "rejection_refund",
        description: `Refund for rejected work on ${submission ? quoted(submission.taskTitle) : "a task"}`,
        task_id: submission?.taskId,
        counterparty_name: submission?.workerName,
      };
    }
    case "approve:":
    case PLATFORM_APPEAL_PAYMENT: {
      const submission = related.submissions.get(ref);
      const title = submission ? quoted(submission.taskTitle) : "a task";
      const common = { task_id: submission?.taskId };
      if (!incoming)
        return {
          kind: "appeal_payment",
          description: `Paid an overturned rejection on ${title}`,
          counterparty_name: submission?.workerName,
          ...common,
        };
      if (prefix === PLATFORM_APPEAL_PAYMENT)
        return {
          kind: "appeal_payment",
          description: `Appeal upheld: TaskMint paid your work on ${title}`,
          ...common,
        };
      return {
        kind: "earning",
        description: `Approved work on ${title}`,
        counterparty_name: submission?.buyerName,
        ...common,
      };
    }
    case "bonus:": {
      const bonus = related.bonuses.get(ref);
      const title = bonus ? quoted(bonus.taskTitle) : "a task";
      return incoming
        ? {
            kind: "bonus_received",
            description: `Bonus for ${title}`,
            task_id: bonus?.taskId,
            counterparty_name: bonus?.buyerName,
          }
        : {
            kind: "bonus_sent",
            description: `Bonus for ${title}`,
            task_id: bonus?.taskId,
            counterparty_name: bonus?.workerName,
          };
    }
    case "withdraw-hold:":
    case "withdraw-return:": {
      const withdrawal = related.withdrawals.get(ref);
      const to = withdrawal ? ` to ${withdrawal.paymentSystem} ${withdrawal.accountNumber}` : "";
      if (prefix === "withdraw-return:")
        return {
          kind: "withdrawal_returned",
          description:
            withdrawal?.status === "cancelled"
              ? `Withdrawal${to} cancelled`
              : `Withdrawal${to} refused${withdrawal?.reason ? `: ${withdrawal.reason}` : ""}`,
        };
      const dollars = withdrawal ? ` ($${(withdrawal.amountCents / 100).toFixed(2)})` : "";
      return {
        kind: "withdrawal",
        description: `Withdrawal${dollars}${to}${withdrawal ? `: ${WITHDRAWAL_OUTCOME[withdrawal.status]}` : ""}`,
      };
    }
    case "account-deleted:":
      return { kind: "account_closed", description: "Account closed" };
    default:
      return { kind: "adjustment", description: "Adjustment by TaskMint" };
  }
}

/** The user's wallet account id, or null before it exists. */
async function walletIdOf(db: Database, userId: string): Promise<number | null> {
  const [wallet] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.ownerKey, walletOf(userId)));
  return wallet?.id ?? null;
}

/** One page of the user's statement, newest first; `next_cursor` leads to older entries. */
export async function statementPage(
  db: Database,
  userId: string,
  query: StatementQuery,
): Promise<CursorPage<StatementEntry>> {
  const beforeId = query.cursor ? Number(decodeCursor(query.cursor, "integer").id) : null;
  const walletId = await walletIdOf(db, userId);
  if (walletId === null) return { items: [], next_cursor: null };
  const movements = await walletMovements(db, walletId, beforeId, query.limit + 1);
  const page = movements.slice(0, query.limit);
  const related = await relatedRecords(db, page);
  const last = movements.length > query.limit ? page.at(-1) : undefined;
  return {
    items: page.map((movement) => ({
      id: String(movement.id),
      created_at: movement.createdAt.toISOString(),
      amount: movement.amount,
      balance_after: movement.balanceAfter,
      ...describe(movement, related),
    })),
    next_cursor: last ? encodeCursor({ value: last.id, id: String(last.id) }) : null,
  };
}

/** The whole statement, newest first, a page at a time (for the CSV download). */
export async function* wholeStatement(db: Database, userId: string): AsyncGenerator<StatementEntry[]> {
  let cursor: string | undefined;
  do {
    const page = await statementPage(db, userId, { cursor, limit: 100 });
    yield page.items;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}
