import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Tables of the auth library (better-auth), with our own columns added to users.

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    role: text("role", { enum: ["worker", "buyer", "admin"] })
      .notNull()
      .default("buyer"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Rule R12: a deleted user cannot sign in but keeps their history. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /** Set by the auth library's two-factor plugin once a TOTP code confirms enrolment (decision 018). */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  },
  (table) => [
    check("users_role_check", sql`${table.role} in ('worker', 'buyer', 'admin')`),
    index("users_role_idx").on(table.role),
    // The admins' user list pages by name.
    index("users_name_idx").on(table.name, table.id),
  ],
);

/** A required column naming a user (the owner, actor or party of a row). */
export const userReference = (column: string) =>
  text(column)
    .notNull()
    .references(() => users.id);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Rule R30: this session began with a second factor (a sign-in's code, or the code that turned two-factor on). */
    twoFactorVerified: boolean("two_factor_verified").notNull().default(false),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("accounts_user_id_idx").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

/** The auth library's two-factor plugin: each user's TOTP secret and backup codes, both encrypted with the auth secret. */
export const twoFactors = pgTable("two_factors", {
  id: text("id").primaryKey(),
  secret: text("secret").notNull(),
  backupCodes: text("backup_codes").notNull(),
  userId: text("user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  /** False between enabling and the first code that confirms it. */
  verified: boolean("verified").notNull().default(true),
  /** Wrong second-step codes in a row, counted before each is judged (lockout.ts); reset by a right one. */
  failedVerificationCount: integer("failed_verification_count").notNull().default(0),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  /** The newest TOTP time step a code was accepted for: no code at or before it works again (RFC 6238, 5.2). */
  lastTotpStep: bigint("last_totp_step", { mode: "number" }),
});
