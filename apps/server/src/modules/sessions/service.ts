import { and, desc, eq, gt } from "drizzle-orm";
import type { ActiveSession } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { sessions } from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";
import { describeDevice, deviceName } from "./device.ts";

/** The most sessions the list shows; a user with more sees the most recently used. */
export const SESSION_LIST_LIMIT = 50;

/** The user's live sessions, most recently used first. */
export async function listSessions(
  db: Database,
  user: { id: string; sessionId: string },
  now: Date,
): Promise<ActiveSession[]> {
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.updatedAt), desc(sessions.id))
    .limit(SESSION_LIST_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    device: deviceName(row.userAgent),
    ...describeDevice(row.userAgent),
    ip: row.ipAddress || null,
    first_seen: row.createdAt.toISOString(),
    last_seen: row.updatedAt.toISOString(),
    current: row.id === user.sessionId,
  }));
}

/**
 * Ends one of the user's sessions. Deleting the row also ends its live notification stream
 * (the trigger of migration 0011). Another user's session answers as an unknown one.
 */
export async function endSession(db: Database, userId: string, sessionId: string): Promise<void> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw new AppError("NOT_FOUND", "Unknown session");
}
