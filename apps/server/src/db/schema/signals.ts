import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { userReference } from "./auth.ts";

// What the fraud signals on withdrawals read (issue 19, decision 017): where and on which
// device each account signs in. A device is a long-lived random cookie, not a fingerprint.

/** Each (device, address) an account has signed in from, first and last time. */
export const userSightings = pgTable(
  "user_sightings",
  {
    userId: userReference("user_id"),
    deviceId: text("device_id").notNull(),
    ip: text("ip").notNull(),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true, precision: 3 }).notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.deviceId, table.ip] }),
    index("user_sightings_device_idx").on(table.deviceId),
  ],
);

/** The address and device of an account's first session: its sign-up. */
export const signUpOrigins = pgTable(
  "sign_up_origins",
  {
    userId: userReference("user_id").primaryKey(),
    ip: text("ip").notNull(),
    deviceId: text("device_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [index("sign_up_origins_ip_idx").on(table.ip)],
);
