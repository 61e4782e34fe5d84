import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { withdrawalStatuses } from "@taskmint/shared";
import { userReference, users } from "./auth.ts";

export const withdrawals = pgTable(
  "withdrawals",
  {
    id: text("id").primaryKey(),
    workerId: userReference("worker_id"),
    coins: integer("withdrawal_coin").notNull(),
    amountCents: integer("amount_cents").notNull(),
    paymentSystem: text("payment_system", { enum: ["Bkash", "Rocket", "Nagad", "PayPal"] }).notNull(),
    accountNumber: text("account_number").notNull(),
    status: text("status", { enum: withdrawalStatuses }).notNull().default("pending"),
    reason: text("reason"),
    /** The Bkash/Nagad/Rocket transaction id or PayPal id the admin paid it under. */
    payoutReference: text("payout_reference"),
    decidedBy: text("decided_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    check("withdrawals_coins_check", sql`${table.coins} >= 200`),
    check(
      "withdrawals_status_check",
      sql`${table.status} in ('pending', 'approved', 'rejected', 'cancelled')`,
    ),
    index("withdrawals_worker_idx").on(table.workerId, table.createdAt),
    index("withdrawals_status_idx").on(table.status, table.createdAt),
    // The admins' list of all withdrawals pages newest first.
    index("withdrawals_created_idx").on(table.createdAt, table.id),
  ],
);

export const notifications = pgTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: userReference("user_id"),
    message: text("message").notNull(),
    /** Where in the app the event happened. */
    actionRoute: text("action_route").notNull(),
    /** A kind from MAIL_KINDS, or "other" (bell only); rule R29. */
    kind: text("kind").notNull().default("other"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("notifications_user_idx").on(table.userId, table.createdAt)],
);

export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    buyerId: userReference("buyer_id"),
    packageId: text("package_id").notNull(),
    coins: integer("coins").notNull(),
    amountCents: integer("amount_cents").notNull(),
    provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
    /** The provider's id for this payment (a PaymentIntent id for Stripe); coins are credited once per id. */
    providerPaymentId: text("provider_payment_id").unique(),
    status: text("status", { enum: ["pending", "completed", "failed"] })
      .notNull()
      .default("pending"),
    failureReason: text("failure_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (table) => [
    check("payments_status_check", sql`${table.status} in ('pending', 'completed', 'failed')`),
    check("payments_amounts_check", sql`${table.coins} > 0 and ${table.amountCents} > 0`),
    index("payments_buyer_idx").on(table.buyerId, table.createdAt),
    index("payments_completed_idx")
      .on(table.buyerId)
      .where(sql`${table.status} = 'completed'`),
    // The abandoned-purchase job looks for old pending payments.
    index("payments_pending_idx")
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending'`),
  ],
);
