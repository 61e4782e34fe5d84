import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { auditActions } from "@taskmint/shared";
import { userReference } from "./auth.ts";

/** Every admin action: who, what, when, and the values before and after. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    actorId: userReference("actor_id"),
    action: text("action", { enum: auditActions }).notNull(),
    targetType: text("target_type", { enum: ["user", "task", "withdrawal", "submission"] }).notNull(),
    targetId: text("target_id").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("audit_log_created_idx").on(table.createdAt),
    index("audit_log_action_idx").on(table.action, table.createdAt),
  ],
);
