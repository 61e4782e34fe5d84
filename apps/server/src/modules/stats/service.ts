import { and, asc, desc, eq, gte, isNull, sql } from "drizzle-orm";
import {
  DAY_MS,
  workerReputationOf,
  type AdminStats,
  type BuyerStats,
  type DailyActivity,
  type TopWorker,
  type WorkerStats,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import {
  ledgerAccounts,
  ledgerTransfers,
  payments,
  platformCounters,
  submissions,
  tasks,
  users,
  workerReputations,
} from "../../db/schema/index.ts";
import { MINT, PAYOUT } from "../ledger/service.ts";
import { completedPurchaseDollars } from "../payments/service.ts";

/** Rule R14, worker: submissions made, still pending, and coins earned from approvals. */
export async function workerStats(db: Database, workerId: string): Promise<WorkerStats> {
  const [row] = await db
    .select({
      total: sql<number>`cast(count(*) as int)`,
      pending: sql<number>`cast(count(*) filter (where ${submissions.status} = 'pending') as int)`,
      earnings: sql<number>`cast(coalesce(sum(${tasks.payableAmount}) filter (where ${submissions.status} = 'approved'), 0) as int)`,
    })
    .from(submissions)
    .innerJoin(tasks, eq(tasks.id, submissions.taskId))
    .where(eq(submissions.workerId, workerId));
  return {
    total_submissions: row?.total ?? 0,
    pending_submissions: row?.pending ?? 0,
    total_earnings: row?.earnings ?? 0,
  };
}

/** Rule R14, buyer: own live tasks, open slots over own open tasks, and dollars of completed purchases. */
export async function buyerStats(db: Database, buyerId: string): Promise<BuyerStats> {
  const [row] = await db
    .select({
      totalTasks: sql<number>`cast(count(*) as int)`,
      pendingWorkers: sql<number>`cast(coalesce(sum(${tasks.requiredWorkers}) filter (where ${tasks.status} = 'open'), 0) as int)`,
    })
    .from(tasks)
    .where(and(eq(tasks.buyerId, buyerId), isNull(tasks.deletedAt)));
  return {
    totalTasks: row?.totalTasks ?? 0,
    pendingWorkers: row?.pendingWorkers ?? 0,
    totalPayments: await completedPurchaseDollars(db, buyerId),
  };
}

/** Rule R13: the six workers with the most coins; ties go to the earlier sign-up. */
export async function topWorkers(db: Database): Promise<TopWorker[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      photo: users.image,
      coins: ledgerAccounts.balance,
      approved: workerReputations.approved,
      rejected: workerReputations.rejected,
    })
    .from(users)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.userId, users.id))
    .leftJoin(workerReputations, eq(workerReputations.workerId, users.id))
    .where(and(eq(users.role, "worker"), isNull(users.deletedAt), eq(ledgerAccounts.kind, "wallet")))
    .orderBy(desc(ledgerAccounts.balance), asc(users.createdAt), asc(users.id))
    .limit(6);
  return rows.map(({ approved, rejected, ...worker }) => ({
    ...worker,
    reputation: workerReputationOf({ approved: approved ?? 0, rejected: rejected ?? 0 }),
  }));
}

/** Rule R14, admin: workers, buyers, coins in user wallets, and dollars of completed purchases, from the running counters. */
export async function adminStats(db: Database): Promise<AdminStats> {
  const rows = await db
    .select({ name: platformCounters.name, total: sql<string>`sum(${platformCounters.value})` })
    .from(platformCounters)
    .groupBy(platformCounters.name);
  const counter = (name: string) => Number(rows.find((row) => row.name === name)?.total ?? 0);
  return {
    totalWorkers: counter("users:worker"),
    totalBuyers: counter("users:buyer"),
    totalCoins: counter("wallet_coins"),
    totalPayments: counter("payment_cents") / 100,
  };
}

/** The admin stats counted from the rows themselves: what the counters must equal. */
async function recountAdminStats(db: Database): Promise<AdminStats> {
  const [people] = await db
    .select({
      workers: sql<number>`cast(count(*) filter (where ${users.role} = 'worker') as int)`,
      buyers: sql<number>`cast(count(*) filter (where ${users.role} = 'buyer') as int)`,
    })
    .from(users)
    .where(isNull(users.deletedAt));
  const [coins] = await db
    .select({ total: sql<number>`cast(coalesce(sum(${ledgerAccounts.balance}), 0) as bigint)` })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.kind, "wallet"));
  const [paid] = await db
    .select({ cents: sql<number>`cast(coalesce(sum(${payments.amountCents}), 0) as bigint)` })
    .from(payments)
    .where(eq(payments.status, "completed"));
  return {
    totalWorkers: people?.workers ?? 0,
    totalBuyers: people?.buyers ?? 0,
    totalCoins: Number(coins?.total ?? 0),
    totalPayments: Number(paid?.cents ?? 0) / 100,
  };
}

/** Problems, if any, between the running counters and a full recount (checked after every test file). */
export async function checkStatsCounters(db: Database): Promise<string[]> {
  const [counted, recounted] = await Promise.all([adminStats(db), recountAdminStats(db)]);
  return (Object.keys(counted) as (keyof AdminStats)[])
    .filter((key) => counted[key] !== recounted[key])
    .map((key) => `stats counter ${key} is ${counted[key]} but the rows add up to ${recounted[key]}`);
}

/** Per UTC day over the last `days` days: coins issued and paid out, tasks posted, work submitted. */
export async function dailyActivity(db: Database, now: Date, days: number): Promise<DailyActivity[]> {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const day = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [mint] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.ownerKey, MINT));
  const [payout] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.ownerKey, PAYOUT));
  const [moved, posted, submitted] = await Promise.all([
    db
      .select({
        day: day(ledgerTransfers.createdAt),
        issued: sql<number>`cast(coalesce(sum(${ledgerTransfers.amount}) filter (where ${ledgerTransfers.fromAccountId} = ${mint?.id ?? 0}), 0) as int)`,
        paidOut: sql<number>`cast(coalesce(sum(${ledgerTransfers.amount}) filter (where ${ledgerTransfers.toAccountId} = ${payout?.id ?? 0}), 0) as int)`,
      })
      .from(ledgerTransfers)
      .where(gte(ledgerTransfers.createdAt, from))
      .groupBy(day(ledgerTransfers.createdAt)),
    db
      .select({ day: day(tasks.createdAt), count: sql<number>`cast(count(*) as int)` })
      .from(tasks)
      .where(gte(tasks.createdAt, from))
      .groupBy(day(tasks.createdAt)),
    db
      .select({ day: day(submissions.createdAt), count: sql<number>`cast(count(*) as int)` })
      .from(submissions)
      .where(gte(submissions.createdAt, from))
      .groupBy(day(submissions.createdAt)),
  ]);
  return Array.from({ length: days }, (_, index) => {
    const date = new Date(from.getTime() + index * DAY_MS).toISOString().slice(0, 10);
    const money = moved.find((row) => row.day === date);
    return {
      date,
      coins_issued: money?.issued ?? 0,
      coins_paid_out: money?.paidOut ?? 0,
      tasks_created: posted.find((row) => row.day === date)?.count ?? 0,
      submissions: submitted.find((row) => row.day === date)?.count ?? 0,
    };
  });
}
