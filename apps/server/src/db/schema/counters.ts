import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Running totals behind the admin stats, kept by triggers (migration 0007) so they stay right
 * whatever code path writes: live users per role, coins in wallets, dollars of completed
 * purchases (in cents). Each total is spread over a few shard rows, so concurrent
 * transactions rarely wait on the same row; a total is the sum of its shards.
 */
export const platformCounters = pgTable(
  "platform_counters",
  {
    name: text("name").notNull(),
    shard: integer("shard").notNull(),
    value: bigint("value", { mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.name, table.shard] })],
);

/**
 * Rate-limit counts shared by every server on this database (issue 38, lib/rate-limit-store.ts):
 * one row per limited key, its count in the window that ends at `resets_at`. Unlogged (migration
 * 0033): a crash may forget counts, which only starts their windows afresh.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    resetsAt: timestamp("resets_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [index("rate_limit_counters_resets_idx").on(table.resetsAt)],
);
