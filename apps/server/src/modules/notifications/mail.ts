import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
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
import { RunAgainAt, type JobHandler } from "../../lib/job-queue.ts";
import type { SendMail } from "../../lib/mailer.ts";

// Rule R29, decisions 019 and 034: notify_user queues a mail with the notification (a job on the
// job queue); this module sends it, keeps each user's choice per kind, and signs the one-click
// unsubscribe links.

/** Minutes to wait after each failed attempt; past the last, the mail is dropped. */
export const MAIL_RETRY_MINUTES = [1, 5, 30, 120] as const;

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
  publicUrl: string;
  signingKey: string;
}

/** The job that sends one notification mail; notify_user (migration 0030) queues it. */
export const NOTIFICATION_MAIL_JOB = "notification_mail";

/**
 * Sends a queued notification mail (decision 034: the job queue claims, leases and retries it);
 * its outgoing_mails row keeps the attempts and how it ended. A mail the user no longer wants
 * (mail turned off, address unconfirmed, account deleted) is dropped unsent; one the provider
 * refuses is tried again after MAIL_RETRY_MINUTES, then dropped.
 */
export function notificationMailJob(delivery: Delivery): JobHandler {
  return {
    // Only for a failure of the database itself: the provider's refusals follow MAIL_RETRY_MINUTES.
    retryAfterMs: [60_000, 300_000, 1_800_000],
    async run(payload, { now }) {
      const { notificationId } = payload as { notificationId: string };
      const [mail] = await delivery.db
        .update(outgoingMails)
        .set({ attempts: sql`${outgoingMails.attempts} + 1` })
        .where(
          and(
            eq(outgoingMails.notificationId, notificationId),
            isNull(outgoingMails.sentAt),
            isNull(outgoingMails.droppedAt),
          ),
        )
        .returning({ id: outgoingMails.notificationId, attempts: outgoingMails.attempts });
      // Gone with its notification, or already sent or dropped.
      if (!mail) return;
      return deliverOne(delivery, mail, now);
    },
  };
}

async function deliverOne(
  { db, sendMail, publicUrl, signingKey }: Delivery,
  mail: { id: string; attempts: number },
  now: Date,
): Promise<RunAgainAt | undefined> {
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
    return;
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
      return;
    }
    const next = new Date(now.getTime() + wait * 60_000);
    await settle({ nextAttemptAt: next, lastError });
    return new RunAgainAt(next, lastError);
  }
  await settle({ sentAt: now });
}
