import { randomUUID } from "node:crypto";
import type { Database } from "../db/client.ts";
import type { AuditAction } from "@taskmint/shared";
import { auditLog } from "../db/schema/index.ts";

export interface AuditEntry {
  actorId: string;
  action: AuditAction;
  targetType: (typeof auditLog.$inferInsert)["targetType"];
  targetId: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/** Records an admin action in the caller's transaction, so it exists exactly when the action does. */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await db
    .insert(auditLog)
    .values({ id: randomUUID(), ...entry, before: entry.before ?? null, after: entry.after ?? null });
}
