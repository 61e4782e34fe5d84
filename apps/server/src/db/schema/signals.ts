import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { userReference } from "./auth.ts";

// What the fraud signals on withdrawals read (issue 19, decision 017): where and on which
// device each account signs in. A device is a long-lived random cookie, not a fingerprint; the
// address and the browser are what the server saw, which clearing cookies does not change (issue 31).

/** Each (device, address) an account has signed in from, first and last time, with the browser last seen there. */
export const userSightings = pgTable(
  "user_sightings",
  {
    userId: userReference("user_id"),
    deviceId: text("device_id").notNull(),
    ip: text("ip").notNull(),
    /** The User-Agent header of the session last seen from this device and address, if it sent one. */
    userAgent: text("user_agent"),
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
