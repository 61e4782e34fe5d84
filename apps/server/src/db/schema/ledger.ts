import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";

export const ledgerAccountKinds = ["mint", "payout", "wallet", "escrow", "hold"] as const;
export type LedgerAccountKind = (typeof ledgerAccountKinds)[number];

/**
 * One row per account of the double-entry ledger (product rule M2). `balance` is a
 * cache of the account's transfers, kept in the same transaction as each transfer.
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: ledgerAccountKinds }).notNull(),
    /** What the account belongs to: "mint", "payout", "wallet:<user>", "escrow:<task>", "hold:<withdrawal>". */
    ownerKey: text("owner_key").notNull().unique(),
    userId: text("user_id").references(() => users.id),
    balance: bigint("balance", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("ledger_accounts_kind_check", sql`${table.kind} in ('mint', 'payout', 'wallet', 'escrow', 'hold')`),
    // M3: only the mint may go below zero (it is minus the coins issued and not returned to it).
    check("ledger_accounts_balance_check", sql`${table.kind} = 'mint' or ${table.balance} >= 0`),
    index("ledger_accounts_user_id_idx").on(table.userId),
  ],
);

/** Transfers are only ever inserted: never updated, never deleted. */
export const ledgerTransfers = pgTable(
  "ledger_transfers",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** Names the cause ("signup:<user>", "approve:<submission>", ...); a repeated cause is a no-op. */
    idempotencyKey: text("idempotency_key").notNull().unique(),
    fromAccountId: bigint("from_account_id", { mode: "number" })
      .notNull()
      .references(() => ledgerAccounts.id),
    toAccountId: bigint("to_account_id", { mode: "number" })
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: bigint("amount", { mode: "number" }).notNull(),
    /**
     * Each side's balance right after this transfer, written by ledger_transfer while it holds
     * both accounts' locks: a statement reads them, and checkLedger proves they chain.
     */
    fromBalanceAfter: bigint("from_balance_after", { mode: "number" }).notNull(),
    toBalanceAfter: bigint("to_balance_after", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("ledger_transfers_amount_check", sql`${table.amount} > 0`),
    check("ledger_transfers_distinct_check", sql`${table.fromAccountId} <> ${table.toAccountId}`),
    // An account's transfers newest first (its statement) from either side.
    index("ledger_transfers_from_idx").on(table.fromAccountId, table.id),
    index("ledger_transfers_to_idx").on(table.toAccountId, table.id),
  ],
);
