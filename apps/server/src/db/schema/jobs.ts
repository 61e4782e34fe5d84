import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The durable job queue (issue 35, decision 034): work that leaves the process (mail, webhook
 * deliveries), written in the transaction of the change that causes it, claimed by any server
 * with FOR UPDATE SKIP LOCKED and a lease, retried with back-off. A job that succeeds is deleted;
 * one out of attempts keeps its row with `failed_at` and its last error.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    /** Which handler runs it ("mail", "webhook"). */
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    /** When it may be claimed next: at once, after a back-off, or when a claim's lease runs out. */
    runAt: timestamp("run_at", { withTimezone: true, precision: 3 }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    failedAt: timestamp("failed_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    index("jobs_due_idx")
      .on(table.runAt)
      .where(sql`${table.failedAt} is null`),
  ],
);
