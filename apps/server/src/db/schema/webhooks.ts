import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { userReference } from "./auth.ts";

// Issue 35, item 4 (decision 035): a buyer's webhook endpoints and every delivery to them.

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    buyerId: userReference("buyer_id"),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    /** `whsec_` and base64: the server signs with it, so it is kept as given (shown once). */
    secret: text("secret").notNull(),
    status: text("status", { enum: ["active", "paused"] })
      .notNull()
      .default("active"),
    pausedAt: timestamp("paused_at", { withTimezone: true, precision: 3 }),
    /** The first failed attempt since the last success: a day of that pauses the endpoint. */
    failingSince: timestamp("failing_since", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    index("webhook_endpoints_buyer_idx").on(table.buyerId, table.createdAt),
    check("webhook_endpoints_status_check", sql`${table.status} in ('active', 'paused')`),
  ],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The `webhook-id` header (`msg_...`): the same on every attempt and resend. */
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    /** The JSON body sent: `{type, timestamp, data}`. */
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** `[{at, response_status, error, duration_ms}]`, oldest first. */
    attemptLog: jsonb("attempt_log")
      .notNull()
      .default(sql`'[]'::jsonb`),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, precision: 3 }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }),
    /** When the retries end: a day after the event, or after a resend. */
    retryUntil: timestamp("retry_until", { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    // An endpoint's deliveries, newest first (the keyset-paged list).
    index("webhook_deliveries_list_idx").on(table.webhookId, table.createdAt.desc(), table.id.desc()),
    check("webhook_deliveries_status_check", sql`${table.status} in ('pending', 'succeeded', 'failed')`),
  ],
);
