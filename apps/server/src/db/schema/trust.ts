import { sql } from "drizzle-orm";
import {
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { appealStatuses } from "@taskmint/shared";
import { userReference } from "./auth.ts";
import { submissions } from "./tasks.ts";

// Issue 18 (rules R21-R23): reputation, blocks, appeals and bonuses.

/**
 * Rule R21: each worker's decided submissions by outcome, kept by a trigger on submissions
 * (migration 0018) whatever code path decides them, so no request recounts them.
 */
export const workerReputations = pgTable(
  "worker_reputations",
  {
    workerId: userReference("worker_id").primaryKey(),
    approved: integer("approved").notNull().default(0),
    rejected: integer("rejected").notNull().default(0),
  },
  (table) => [
    check("worker_reputations_counts_check", sql`${table.approved} >= 0 and ${table.rejected} >= 0`),
  ],
);

/**
 * Rule R21: each buyer's decisions over the last 90 days, recomputed by the jobs runner for
 * buyers who decided something since (a median cannot be kept by counting), read by every task list.
 */
export const buyerReputations = pgTable("buyer_reputations", {
  buyerId: userReference("buyer_id").primaryKey(),
  approved: integer("approved").notNull(),
  rejected: integer("rejected").notNull(),
  /** Median seconds from submission to decision; null without decisions in the window. */
  medianReviewSeconds: doublePrecision("median_review_seconds"),
  refreshedAt: timestamp("refreshed_at", { withTimezone: true, precision: 3 }).notNull(),
});

/** Rule R23: a buyer's block of a worker, with the buyer's private note. */
export const buyerBlocks = pgTable(
  "buyer_blocks",
  {
    buyerId: userReference("buyer_id"),
    workerId: userReference("worker_id"),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.buyerId, table.workerId] }),
    // The buyer's list, newest first.
    index("buyer_blocks_buyer_created_idx").on(table.buyerId, table.createdAt),
  ],
);

/** Rule R23: a buyer whose tasks a worker chose not to see. */
export const hiddenBuyers = pgTable(
  "hidden_buyers",
  {
    workerId: userReference("worker_id"),
    buyerId: userReference("buyer_id"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.workerId, table.buyerId] }),
    index("hidden_buyers_worker_created_idx").on(table.workerId, table.createdAt),
  ],
);

/**
 * Rule R22: a worker's appeal of a rejected submission; one per submission (the key), moved
 * on only by conditional updates of its status.
 */
export const appeals = pgTable(
  "appeals",
  {
    submissionId: text("submission_id")
      .primaryKey()
      .references(() => submissions.id),
    buyerId: userReference("buyer_id"),
    status: text("status", { enum: appealStatuses }).notNull().default("open"),
    message: text("message").notNull(),
    answer: text("answer"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    /** When the buyer upheld it: the worker may escalate from then. */
    answeredAt: timestamp("answered_at", { withTimezone: true, precision: 3 }),
    escalatedAt: timestamp("escalated_at", { withTimezone: true, precision: 3 }),
    decidedAt: timestamp("decided_at", { withTimezone: true, precision: 3 }),
    decidedBy: text("decided_by", { enum: ["buyer", "admin"] }),
    /** Where an overturn's payment came from: the task's escrow, the buyer's wallet or the platform. */
    paidFrom: text("paid_from", { enum: ["escrow", "buyer", "platform"] }),
  },
  (table) => [
    check(
      "appeals_status_check",
      sql.raw(`status in (${appealStatuses.map((status) => `'${status}'`).join(", ")})`),
    ),
    // The buyer's appeals to answer.
    index("appeals_buyer_status_idx").on(table.buyerId, table.status),
    // The admins' queue of escalated appeals, oldest first.
    index("appeals_escalated_idx")
      .on(table.escalatedAt, table.submissionId)
      .where(sql`${table.status} = 'escalated'`),
  ],
);

/**
 * Rule R23: coins a buyer sent a worker on top of a submission's pay, once per the request's
 * Idempotency-Key (unique per buyer); `request` is the body the key was first used with.
 */
export const bonuses = pgTable(
  "bonuses",
  {
    id: text("id").primaryKey(),
    buyerId: userReference("buyer_id"),
    workerId: userReference("worker_id"),
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.id),
    coins: integer("coins").notNull(),
    message: text("message").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    check("bonuses_coins_check", sql`${table.coins} between 1 and 1000`),
    uniqueIndex("bonuses_buyer_key_idx").on(table.buyerId, table.idempotencyKey),
    index("bonuses_submission_idx").on(table.submissionId),
  ],
);
