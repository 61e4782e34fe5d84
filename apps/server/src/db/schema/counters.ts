import { bigint, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

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
