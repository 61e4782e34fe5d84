import { and, desc, eq, inArray, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AppNotification, MarkReadRequest, NotificationKind, Page, PageQuery } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { notifications } from "../../db/schema/index.ts";
import { countAll, newestFirstPage } from "../../lib/paging.ts";

/** The channel on which every server process hears of new notifications (named again in notify_user). */
export const NOTIFICATION_CHANNEL = "notifications";
/** The channel on which the database announces ended sessions and changed users (migration 0011). */
export const SESSION_END_CHANNEL = "session_ends";

const toView = (row: typeof notifications.$inferSelect): AppNotification => ({
  id: row.id,
  message: row.message,
  action_route: row.actionRoute,
  read: row.readAt !== null,
  created_at: row.createdAt.toISOString(),
});

/**
 * Someone's own words (a reason, an answer) as a sentence to follow with another: trimmed, with
 * a full stop unless they end a sentence already ("form." stays "form.", never "form..").
 */
export function asSentence(words: string): string {
  const trimmed = words.trim();
  return /[.!?…]["'”’)]*$/u.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * Records a message for a user in the caller's transaction, so it exists exactly when
 * the event does, and announces it (delivered on commit) to every server process.
 */
export async function notify(
  db: Database,
  notification: { userId: string; message: string; actionRoute: string; kind: NotificationKind },
): Promise<void> {
  const { userId, message, actionRoute, kind } = notification;
  await db.execute(sql`select ${notifySql(userId, message, actionRoute, kind)}`);
}

/**
 * `notify` as an SQL expression, for a domain action that does all its work in one
 * statement: notify_user (migration 0021) stores the row, queues its mail when the
 * recipient gets this kind by mail (rule R29) and announces its id on NOTIFICATION_CHANNEL.
 */
export function notifySql(
  userId: string | SQLWrapper,
  message: string | SQLWrapper,
  actionRoute: string,
  kind: NotificationKind,
): SQL {
  return sql`notify_user(${userId}, ${message}, ${actionRoute}, ${kind})`;
}

export async function getNotification(
  db: Database,
  id: string,
): Promise<(AppNotification & { userId: string }) | null> {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
  return row ? { ...toView(row), userId: row.userId } : null;
}

const notificationView = {
  table: notifications,
  select: (db: Database) => db.select().from(notifications),
  toItem: toView,
};

export async function listNotifications(
  db: Database,
  userId: string,
  page: PageQuery,
): Promise<Page<AppNotification> & { unread: number }> {
  const mine = eq(notifications.userId, userId);
  const [listed, [unread]] = await Promise.all([
    newestFirstPage(db, notificationView, mine, page),
    db
      .select({ total: countAll })
      .from(notifications)
      .where(and(mine, isNull(notifications.readAt))),
  ]);
  return { ...listed, unread: unread?.total ?? 0 };
}

/** The id of the user's newest notification, first in their list, or null. */
export async function newestNotificationId(db: Database, userId: string): Promise<string | null> {
  // The list's order (newestFirstPage), without its count.
  const [newest] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(1);
  return newest?.id ?? null;
}

/** Marks the user's own notifications read: the given ids, or all. Others' ids are ignored. */
export async function markRead(
  db: Database,
  request: { userId: string; which: MarkReadRequest; now: Date },
): Promise<number> {
  const { userId, which, now } = request;
  const updated = await db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        "ids" in which ? inArray(notifications.id, which.ids) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  return updated.length;
}
