import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";

export const withdrawals = pgTable(
  "withdrawals",
  {
    id: text("id").primaryKey(),
    workerId: text("worker_id")
      .notNull()
      .references(() => users.id),
    coins: integer("withdrawal_coin").notNull(),
    amountCents: integer("amount_cents").notNull(),
    paymentSystem: text("payment_system", { enum: ["Bkash", "Rocket", "Nagad", "PayPal"] }).notNull(),
    accountNumber: text("account_number").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull().default("pending"),
    reason: text("reason"),
    decidedBy: text("decided_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    check("withdrawals_coins_check", sql`${table.coins} >= 200`),
    check("withdrawals_status_check", sql`${table.status} in ('pending', 'approved', 'rejected')`),
    index("withdrawals_worker_idx").on(table.workerId, table.createdAt),
    index("withdrawals_status_idx").on(table.status, table.createdAt),
  ],
);

export const notifications = pgTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    message: text("message").notNull(),
    /** Where in the app the event happened. */
    actionRoute: text("action_route").notNull(),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("notifications_user_idx").on(table.userId, table.createdAt)],
);
