import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { sessions, users } from "./auth.ts";

// Issue 36, point 5 (decision 038): Web Push to a user's devices, and the hours it keeps quiet.

/**
 * The server's VAPID key pair when the environment gives none: made on the first start and
 * kept, one row (`id` is always true), inserted with ON CONFLICT DO NOTHING and read back so
 * servers starting at once on one database agree.
 */
export const vapidKeys = pgTable(
  "vapid_keys",
  {
    id: boolean("id").primaryKey().default(true),
    /** base64url, the uncompressed P-256 point (65 bytes). */
    publicKey: text("public_key").notNull(),
    /** base64url, 32 bytes. */
    privateKey: text("private_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [check("vapid_keys_one_row", sql`${table.id}`)],
);

/**
 * A device that receives pushes: a browser's PushSubscription, one row per endpoint, owned by
 * the session that subscribed it, so ending the session (signing out) removes it.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    /** The push service's URL for this device (at most 2,000 characters, as the contract says). */
    endpoint: text("endpoint").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** The device's P-256 public key and auth secret, base64url (RFC 8291). */
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    // A user's devices, oldest first (the push job, and dropping the oldest past the limit).
    index("push_subscriptions_user_idx").on(table.userId, table.createdAt),
    index("push_subscriptions_session_idx").on(table.sessionId),
  ],
);

/** A user's quiet hours (no row: the defaults, off). `from` later than `to` spans midnight. */
export const quietHours = pgTable(
  "quiet_hours",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull(),
    /** HH:MM, 24-hour clock, in `time_zone`. */
    from: text("from").notNull(),
    to: text("to").notNull(),
    /** An IANA time zone ("Asia/Dhaka"). */
    timeZone: text("time_zone").notNull(),
  },
  (table) => [
    check("quiet_hours_from_check", sql`${table.from} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check("quiet_hours_to_check", sql`${table.to} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
  ],
);
