import { createECDH } from "node:crypto";
import { and, desc, eq, gt, inArray, notInArray, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { PushPayload, PushSubscriptionBody, QuietHours } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { pushSubscriptions, quietHours, sessions, users } from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";
import { enqueueJobs, type JobHandler } from "../../lib/job-queue.ts";
import { checkOutboundUrl } from "../../lib/outbound-urls.ts";
import { sendPush, type Device } from "./sender.ts";
import type { Vapid } from "./vapid.ts";

// Web Push to a user's devices (issue 36, point 5; decision 038).

export { loadVapid, type Vapid } from "./vapid.ts";

/** The job kind that pushes one payload to one user's devices (read when the job runs). */
export const PUSH_JOB = "push";
/** The job kind that tries one device again after its push service failed to take a push. */
export const PUSH_RETRY_JOB = "push_retry";
/** A user's devices; a new one past this drops the oldest. */
export const MAX_PUSH_DEVICES = 10;
/** The longest endpoint kept, as the contract says (and within what a btree index entry holds). */
const MAX_ENDPOINT_LENGTH = 2_000;
/** Waits before each retry of one device: all within the push's hour of life (PUSH_TTL_SECONDS). */
const RETRY_AFTER_MS = [30_000, 120_000, 600_000, 1_800_000];

/** The quiet hours of a user who never set them: off. */
export const DEFAULT_QUIET_HOURS: QuietHours = {
  enabled: false,
  from: "22:00",
  to: "07:00",
  time_zone: "Asia/Dhaka",
};

export interface PushJobPayload {
  userId: string;
  payload: PushPayload;
}

interface PushRetryPayload extends PushJobPayload {
  endpoint: string;
}

/** Queues a push to the user's devices in `db`, the transaction of the change that causes it. */
export async function queuePush(
  db: Database,
  push: { userId: string; payload: PushPayload; now: Date },
): Promise<void> {
  const job: PushJobPayload = { userId: push.userId, payload: push.payload };
  await enqueueJobs(db, [{ kind: PUSH_JOB, payload: job, now: push.now }]);
}

const invalid = (field: string, message: string) => new AppError("VALIDATION", message, { [field]: message });

/** The endpoint as it is stored and sent to: the URL's normal form (ASCII only). */
function endpointOf(raw: string, production: boolean): string {
  // The URL parser would escape them; a push service's URL never has them.
  if (/\p{Cc}/u.test(raw)) throw invalid("endpoint", "The push endpoint must not contain control characters");
  const endpoint = checkOutboundUrl(raw, production, "endpoint").href;
  if (endpoint.length > MAX_ENDPOINT_LENGTH) throw invalid("endpoint", "The push endpoint is too long");
  return endpoint;
}

/** The device's keys as RFC 8291 needs them: a P-256 public key (a point on the curve) and 16 bytes. */
function checkDeviceKeys(keys: PushSubscriptionBody["keys"]) {
  const p256dh = Buffer.from(keys.p256dh, "base64url");
  let onCurve = p256dh.length === 65;
  if (onCurve) {
    try {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      ecdh.computeSecret(p256dh);
    } catch {
      onCurve = false;
    }
  }
  if (!onCurve) throw invalid("keys.p256dh", "p256dh must be a P-256 public key (65 bytes, base64url)");
  if (Buffer.from(keys.auth, "base64url").length !== 16)
    throw invalid("keys.auth", "auth must be 16 bytes, base64url");
}

/**
 * POST /api/me/push-subscriptions: this device receives the user's pushes until the session
 * ends. The same endpoint again (a renewal, or a phone now signed in to another account) moves
 * its one row to this user and session; a user's eleventh device drops the oldest.
 */
export async function subscribeDevice(
  db: Database,
  input: {
    userId: string;
    sessionId: string;
    subscription: PushSubscriptionBody;
    now: Date;
    production: boolean;
  },
): Promise<{ endpoint: string; created_at: string }> {
  const endpoint = endpointOf(input.subscription.endpoint, input.production);
  checkDeviceKeys(input.subscription.keys);
  const device = {
    userId: input.userId,
    sessionId: input.sessionId,
    p256dh: input.subscription.keys.p256dh,
    auth: input.subscription.keys.auth,
    createdAt: input.now,
  };
  return db.transaction(async (tx) => {
    // The user's row is locked while their devices are counted: parallel subscribes keep the limit.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for("no key update");
    await tx
      .insert(pushSubscriptions)
      .values({ endpoint, ...device })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: device });
    const kept = tx
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, input.userId))
      .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.endpoint))
      .limit(MAX_PUSH_DEVICES);
    await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, input.userId), notInArray(pushSubscriptions.endpoint, kept)));
    return { endpoint, created_at: input.now.toISOString() };
  });
}

/**
 * DELETE /api/me/push-subscriptions: no more pushes to that device. Idempotent: a device that is
 * not the user's (gone already, another's, or no URL at all) changes nothing and is not told apart.
 */
export async function unsubscribeDevice(db: Database, input: { userId: string; endpoint: string }) {
  let endpoint: string;
  try {
    endpoint = new URL(input.endpoint).href;
  } catch {
    return;
  }
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, input.userId)));
}

/** GET /api/me/quiet-hours: the user's, or the defaults (off). */
export async function quietHoursOf(db: Database, userId: string): Promise<QuietHours> {
  const [row] = await db
    .select({
      enabled: quietHours.enabled,
      from: quietHours.from,
      to: quietHours.to,
      time_zone: quietHours.timeZone,
    })
    .from(quietHours)
    .where(eq(quietHours.userId, userId));
  return row ?? DEFAULT_QUIET_HOURS;
}

/** PUT /api/me/quiet-hours. */
export async function setQuietHours(db: Database, userId: string, hours: QuietHours): Promise<QuietHours> {
  const values = { enabled: hours.enabled, from: hours.from, to: hours.to, timeZone: hours.time_zone };
  await db
    .insert(quietHours)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: quietHours.userId, set: values });
  return hours;
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** Whether `now` falls in the quiet hours, on the wall clock of their time zone: [from, to). */
export function isQuietAt(hours: QuietHours, now: Date): boolean {
  if (!hours.enabled) return false;
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: hours.time_zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const part = (type: "hour" | "minute") => Number(parts.find((p) => p.type === type)?.value);
  const minute = part("hour") * 60 + part("minute");
  const from = minutesOf(hours.from);
  const to = minutesOf(hours.to);
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/** The devices `where` names whose session is live at `now`: an expired session is signed out too. */
const liveDevices = (db: Database, where: SQL | undefined, now: Date): Promise<Device[]> =>
  db
    .select({
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .innerJoin(sessions, eq(sessions.id, pushSubscriptions.sessionId))
    .where(and(where, gt(sessions.expiresAt, now)));

interface PushJobOptions {
  db: Database;
  vapid: Vapid;
  production: boolean;
  log: FastifyBaseLogger;
}

function sendTo(options: PushJobOptions, device: Device, payload: PushPayload) {
  return sendPush({
    device,
    body: JSON.stringify(payload),
    topic: payload.tag,
    vapid: options.vapid,
    production: options.production,
  });
}

/**
 * Runs a queued push: nothing in the user's quiet hours; else to every device of the user's live
 * sessions at once. A device that is gone (404, 410) is removed: the browser dropped it. One
 * whose push service failed gets a job of its own (PUSH_RETRY_JOB), so a retry never pushes
 * again to the devices that had it. A device's failure never keeps the others from theirs.
 */
export function pushJob(options: PushJobOptions): JobHandler {
  const { db, log } = options;
  return {
    // The database failing before anything was sent.
    retryAfterMs: [60_000, 300_000],
    async run(job, { now }) {
      const { userId, payload } = job as PushJobPayload;
      if (isQuietAt(await quietHoursOf(db, userId), now)) return;
      const devices = await liveDevices(db, eq(pushSubscriptions.userId, userId), now);
      const outcomes = await Promise.all(devices.map((device) => sendTo(options, device, payload)));
      const gone: string[] = [];
      const retries: PushRetryPayload[] = [];
      for (const [index, outcome] of outcomes.entries()) {
        const { endpoint } = devices[index]!;
        if (outcome.kind === "sent") continue;
        log.info({ userId, endpoint, outcome }, "a push was not delivered");
        if (outcome.kind === "gone") gone.push(endpoint);
        if (outcome.kind === "retry") retries.push({ userId, payload, endpoint });
      }
      if (gone.length === 0 && retries.length === 0) return;
      await db.transaction(async (tx) => {
        if (gone.length > 0)
          await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.endpoint, gone));
        await enqueueJobs(
          tx,
          retries.map((retry) => ({
            kind: PUSH_RETRY_JOB,
            payload: retry,
            now,
            runAt: new Date(now.getTime() + RETRY_AFTER_MS[0]!),
          })),
        );
      });
    },
  };
}

/** Tries one device again (PUSH_RETRY_JOB) with the queue's back-off, while it is still the user's. */
export function pushRetryJob(options: PushJobOptions): JobHandler {
  const { db } = options;
  return {
    // The first wait is the one before this job's first run (pushJob).
    retryAfterMs: RETRY_AFTER_MS.slice(1),
    async run(job, { now }) {
      const { userId, endpoint, payload } = job as PushRetryPayload;
      const [device] = await liveDevices(
        db,
        and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)),
        now,
      );
      // Removed, signed out, or now another user's device: this push is not for it.
      if (!device || isQuietAt(await quietHoursOf(db, userId), now)) return;
      const outcome = await sendTo(options, device, payload);
      // The browser dropped the subscription: so do we.
      if (outcome.kind === "gone")
        await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
      if (outcome.kind === "retry") throw new Error(`push to ${new URL(endpoint).origin}: ${outcome.reason}`);
      if (outcome.kind === "refused") options.log.info({ userId, endpoint, outcome }, "a push was refused");
    },
  };
}
