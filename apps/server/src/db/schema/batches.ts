import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { userReference } from "./auth.ts";

/** Issue 35 point 5 (decision 036): tasks a buyer posted together from one CSV file. */
export const taskBatches = pgTable(
  "task_batches",
  {
    id: text("id").primaryKey(),
    buyerId: userReference("buyer_id"),
    tasksCreated: integer("tasks_created").notNull(),
    totalCost: integer("total_cost").notNull(),
    fileName: text("file_name"),
    /** The API key that posted it, null for a signed-in session. */
    apiKeyId: text("api_key_id"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [index("task_batches_buyer_idx").on(table.buyerId, table.createdAt)],
);

/**
 * Issue 35 point 2 (decision 036): the Idempotency-Key of each POST a key can make, per user.
 * A row is claimed (no status yet) before the action runs and completed with its answer; a
 * failed action deletes its claim. Kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    ownerId: text("owner_id").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the method, path, query and body: another request under the same key is refused. */
    fingerprint: text("fingerprint").notNull(),
    /** The answer's status and JSON body; null while the first request runs. */
    status: integer("status"),
    answer: jsonb("answer"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    /** Until when the first request's claim holds; a claim left past it (a crashed server) is taken over. */
    claimedUntil: timestamp("claimed_until", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.ownerId, table.key] }),
    index("idempotency_keys_created_idx").on(table.createdAt),
  ],
);
