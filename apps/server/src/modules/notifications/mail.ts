import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import {
  BRAND,
  MAIL_KINDS,
  mailKinds,
  paths,
  type MailKind,
  type NotificationSettings,
  type NotificationSettingsUpdate,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { notificationPreferences, notifications, outgoingMails, users } from "../../db/schema/index.ts";
import type { SendMail } from "../../lib/mailer.ts";

// Rule R29, decision 019: notify_user queues a mail with the notification; this module sends
// the queue, keeps each user's choice per kind, and signs the one-click unsubscribe links.

/** Minutes to wait after each failed attempt; past the last, the mail is dropped. */
export const MAIL_RETRY_MINUTES = [1, 5, 30, 120] as const;
/** How long a claimed mail is left to its sender before another run may take it again. */
const CLAIM_LEASE_MS = 10 * 60_000;

const isMailKind = (kind: string): kind is MailKind => kind in MAIL_KINDS;

/** Each kind with the user's channel, or its default. */
export async function notificationSettings(db: Database, userId: string): Promise<NotificationSettings> {
  const chosen = await db
    .select({ kind: notificationPreferences.kind, channel: notificationPreferences.channel })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  const byKind = new Map(chosen.map((row) => [row.kind, row.channel]));
  return Object.fromEntries(
    mailKinds.map((kind) => [kind, byKind.get(kind) ?? MAIL_KINDS[kind].byDefault]),
  ) as NotificationSettings;
}

/** Sets the channel of the given kinds; answers every kind's channel. */
export async function updateNotificationSettings(
  db: Database,
  userId: string,
  update: NotificationSettingsUpdate,
): Promise<NotificationSettings> {
  const rows = Object.entries(update).map(([kind, channel]) => ({ userId, kind, channel }));
  await db
    .insert(notificationPreferences)
    .values(rows)
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.kind],
      set: { channel: sql`excluded.channel` },
    });
  return notificationSettings(db, userId);
}

const signature = (key: string, userId: string, kind: string) =>
  createHmac("sha256", key).update(`unsubscribe:${userId}:${kind}`).digest("base64url");

/** The token of a mail's unsubscribe link: who and which kind, signed with the app's key. */
export function unsubscribeToken(key: string, userId: string, kind: MailKind): string {
  return `${userId}.${kind}.${signature(key, userId, kind)}`;
}

/** The user and kind a token names, or null when it was not signed by this app. */
export function readUnsubscribeToken(key: string, token: string): { userId: string; kind: MailKind } | null {
  const [userId = "", kind = "", signed = ""] = token.split(".");
  if (!isMailKind(kind)) return null;
  const expected = Buffer.from(signature(key, userId, kind));
  const given = Buffer.from(signed);
  return given.length === expected.length && timingSafeEqual(given, expected) ? { userId, kind } : null;
}

/** One-click unsubscribe: mail of this kind stops; the bell keeps it. False for an unknown user. */
export async function unsubscribe(db: Database, userId: string, kind: MailKind): Promise<boolean> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) return false;
  await updateNotificationSettings(db, userId, { [kind]: "bell" });
  return true;
}

/** The text of a notification mail, with its links. */
export function composeNotificationMail(
  notification: { message: string; actionRoute: string; kind: MailKind; name: string; email: string },
  links: { publicUrl: string; unsubscribeUrl: string },
) {
  const label = MAIL_KINDS[notification.kind].label;
  const subject =
    notification.message.length > 90 ? `${notification.message.slice(0, 89)}…` : notification.message;
  return {
    to: notification.email,
    subject: `${BRAND}: ${subject}`,
    text: [
      `Hello ${notification.name},`,
      "",
      notification.message,
      "",
      `Open it in ${BRAND}: ${links.publicUrl}${notification.actionRoute}`,
      "",
      "--",
      `You get this mail because mail is on for "${label}" in your notification settings.`,
      `Stop these mails: ${links.unsubscribeUrl}`,
      `All settings: ${links.publicUrl}${paths.profile}#notifications`,
      "",
    ].join("\n"),
  };
}

interface Delivery {
  db: Database;
  sendMail: SendMail;
  now: Date;
  publicUrl: string;
  signingKey: string;
  batch?: number;
}

/**
 * Sends the mails that are due, each at least once: a run claims a batch (a lease, so a run
 * that dies leaves them to a later one) without holding a transaction over the network.
 * A mail the user no longer wants (mail turned off, account deleted) is dropped unsent.
 */
export async function deliverDueMails(delivery: Delivery) {
  const { db, now, batch = 20 } = delivery;
  const claimed = await db
    .update(outgoingMails)
    .set({
      attempts: sql`${outgoingMails.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS),
    })
    .where(
      inArray(
        outgoingMails.notificationId,
        db
          .select({ id: outgoingMails.notificationId })
          .from(outgoingMails)
          .where(
            and(
              isNull(outgoingMails.sentAt),
              isNull(outgoingMails.droppedAt),
              or(isNull(outgoingMails.nextAttemptAt), lte(outgoingMails.nextAttemptAt, now)),
            ),
          )
          .orderBy(sql`${outgoingMails.nextAttemptAt} asc nulls first`)
          .limit(batch)
          .for("update", { skipLocked: true }),
      ),
    )
    .returning({ id: outgoingMails.notificationId, attempts: outgoingMails.attempts });
  const counts = { sent: 0, retried: 0, dropped: 0 };
  for (const mail of claimed) counts[await deliverOne(delivery, mail)] += 1;
  return counts;
}

async function deliverOne(
  { db, sendMail, now, publicUrl, signingKey }: Delivery,
  mail: { id: string; attempts: number },
): Promise<"sent" | "retried" | "dropped"> {
  const [row] = await db
    .select({
      message: notifications.message,
      actionRoute: notifications.actionRoute,
      kind: notifications.kind,
      userId: users.id,
      name: users.name,
      email: users.email,
      verified: users.emailVerified,
      deletedAt: users.deletedAt,
      channel: notificationPreferences.channel,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.userId, users.id), eq(notificationPreferences.kind, notifications.kind)),
    )
    .where(eq(notifications.id, mail.id));
  const settle = (change: Partial<typeof outgoingMails.$inferInsert>) =>
    db.update(outgoingMails).set(change).where(eq(outgoingMails.notificationId, mail.id));
  if (!row || !isMailKind(row.kind) || row.deletedAt || !row.verified || row.channel === "bell") {
    await settle({ droppedAt: now, lastError: "no longer wanted" });
    return "dropped";
  }
  const token = unsubscribeToken(signingKey, row.userId, row.kind);
  const oneClick = `${publicUrl}/api/unsubscribe?token=${token}`;
  try {
    await sendMail({
      ...composeNotificationMail(
        { ...row, kind: row.kind },
        { publicUrl, unsubscribeUrl: `${publicUrl}${paths.unsubscribe}?token=${token}` },
      ),
      // RFC 8058: mail clients offer "Unsubscribe" and POST to this address themselves.
      headers: { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
  } catch (error) {
    const wait = MAIL_RETRY_MINUTES[mail.attempts - 1];
    const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    if (wait === undefined) {
      await settle({ droppedAt: now, lastError });
      return "dropped";
    }
    await settle({ nextAttemptAt: new Date(now.getTime() + wait * 60_000), lastError });
    return "retried";
  }
  await settle({ sentAt: now });
  return "sent";
}
