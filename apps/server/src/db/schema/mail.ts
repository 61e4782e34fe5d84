import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { userReference } from "./auth.ts";
import { notifications } from "./money.ts";

// Notification mails (rule R29, decision 019): each user's choice per kind, and the queue
// notify_user fills in the transaction of the event.

/** A user's channel for one kind of notification; a kind without a row has its default. */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    userId: userReference("user_id"),
    kind: text("kind").notNull(),
    channel: text("channel", { enum: ["mail", "bell"] }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.kind] }),
    check("notification_preferences_channel_check", sql`${table.channel} in ('mail', 'bell')`),
  ],
);

/** A notification to mail: claimed by the mail job, sent once, retried on failure. */
export const outgoingMails = pgTable(
  "outgoing_mails",
  {
    notificationId: text("notification_id")
      .primaryKey()
      .references(() => notifications.id, { onDelete: "cascade" }),
    attempts: integer("attempts").notNull().default(0),
    /** When the job may take it next (null: at once): after a failure's back-off, or once a claim's lease runs out. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }),
    sentAt: timestamp("sent_at", { withTimezone: true, precision: 3 }),
    /** Given up: out of attempts, or no longer wanted (unsubscribed, unverified, deleted). */
    droppedAt: timestamp("dropped_at", { withTimezone: true, precision: 3 }),
    lastError: text("last_error"),
  },
  (table) => [
    index("outgoing_mails_due_idx")
      .on(table.nextAttemptAt.asc().nullsFirst())
      .where(sql`${table.sentAt} is null and ${table.droppedAt} is null`),
  ],
);
