import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { userReference } from "./auth.ts";

/**
 * Issue 35 (decision 033): a buyer's API keys. The secret is kept only as its SHA-256 (the key
 * is 32 random bytes, so a fast hash is enough: nothing to guess from it); requests look a key
 * up by that hash. A revoked key keeps its row, so the list of what was issued stays.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    buyerId: userReference("buyer_id"),
    name: text("name").notNull(),
    /** The key's first characters (`tm_` and 8 of the secret), shown to its owner to tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. */
    secretHash: text("secret_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    /** Kept to the minute: a request writes it only when it is a minute old. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 3 }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
  },
  (table) => [
    uniqueIndex("api_keys_secret_hash_idx").on(table.secretHash),
    // The owner's live keys, newest first (the list and the count against the limit).
    index("api_keys_buyer_live_idx")
      .on(table.buyerId, table.createdAt)
      .where(sql`${table.revokedAt} is null`),
  ],
);
