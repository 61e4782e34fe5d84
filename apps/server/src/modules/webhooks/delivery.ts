import { and, eq, lte, sql } from "drizzle-orm";
import { paths, WEBHOOK_PAUSE_AFTER_HOURS, type DeliveryAttempt } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema/index.ts";
import { RunAgainAt, type JobHandler } from "../../lib/job-queue.ts";
import { notify } from "../notifications/service.ts";
import { sendSigned } from "./sender.ts";

// One attempt of one delivery, run by the job queue (decisions 034, 035).

/** Waits after each failed attempt (the Standard Webhooks schedule), the last repeated; never past the delivery's retry_until. */
const RETRY_AFTER_MS = [5, 300, 1_800, 7_200, 18_000, 36_000].map((seconds) => seconds * 1000);
/** The attempts a delivery keeps in its log, newest last. */
const MAX_LOGGED_ATTEMPTS = 100;
const PAUSE_AFTER_MS = WEBHOOK_PAUSE_AFTER_HOURS * 3_600_000;

/** When to try again after `attempts` failed ones, or null once the retries are over. */
export function nextAttemptAt(now: Date, attempts: number, retryUntil: Date): Date | null {
  if (now >= retryUntil) return null;
  const wait = RETRY_AFTER_MS[Math.min(attempts, RETRY_AFTER_MS.length) - 1]!;
  return new Date(Math.min(now.getTime() + wait, retryUntil.getTime()));
}

export function webhookJob(options: { db: Database; production: boolean }): JobHandler {
  const { db, production } = options;
  return {
    // A failure of the database itself (the job's own schedule is RunAgainAt).
    retryAfterMs: [60_000, 300_000, 1_800_000],
    async run(payload, { now }) {
      const { deliveryId } = payload as { deliveryId: string };
      const [row] = await db
        .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.webhookId))
        .where(eq(webhookDeliveries.id, deliveryId));
      // Removed with its endpoint, or settled: a resend queues a job of its own.
      if (!row || row.delivery.status !== "pending") return;
      const { delivery, endpoint } = row;
      if (endpoint.status === "paused") {
        await db
          .update(webhookDeliveries)
          .set({ status: "failed", nextAttemptAt: null })
          .where(eq(webhookDeliveries.id, delivery.id));
        return;
      }
      const result = await sendSigned({
        url: endpoint.url,
        secret: endpoint.secret,
        eventId: delivery.eventId,
        body: JSON.stringify(delivery.payload),
        production,
      });
      const ok =
        result.responseStatus !== null && result.responseStatus >= 200 && result.responseStatus < 300;
      const attempt: DeliveryAttempt = {
        at: now.toISOString(),
        response_status: result.responseStatus,
        error: result.error,
        duration_ms: result.durationMs,
      };
      const attempts = delivery.attempts + 1;
      const next = ok ? null : nextAttemptAt(now, attempts, delivery.retryUntil);
      await db.transaction(async (tx) => {
        await tx
          .update(webhookDeliveries)
          .set({
            status: ok ? "succeeded" : next ? "pending" : "failed",
            attempts,
            lastAttemptAt: now,
            nextAttemptAt: next,
            attemptLog: [...(delivery.attemptLog as DeliveryAttempt[]), attempt].slice(-MAX_LOGGED_ATTEMPTS),
          })
          .where(eq(webhookDeliveries.id, delivery.id));
        if (ok) {
          await tx
            .update(webhookEndpoints)
            .set({ failingSince: null })
            .where(eq(webhookEndpoints.id, endpoint.id));
        } else {
          await recordFailure(tx, endpoint.id, now);
        }
      });
      if (next) return new RunAgainAt(next, result.error ?? `answered ${result.responseStatus}`);
    },
  };
}

/** Marks the endpoint failing since now (unless it already was); a day of that pauses it, telling its buyer once. */
async function recordFailure(tx: Database, endpointId: string, now: Date) {
  await tx
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpointId));
  const [paused] = await tx
    .update(webhookEndpoints)
    .set({ status: "paused", pausedAt: now })
    .where(
      and(
        eq(webhookEndpoints.id, endpointId),
        eq(webhookEndpoints.status, "active"),
        lte(webhookEndpoints.failingSince, new Date(now.getTime() - PAUSE_AFTER_MS)),
      ),
    )
    .returning({ buyerId: webhookEndpoints.buyerId, url: webhookEndpoints.url });
  if (paused)
    await notify(tx, {
      userId: paused.buyerId,
      message: `Your webhook endpoint ${paused.url} failed every delivery for ${WEBHOOK_PAUSE_AFTER_HOURS} hours and is paused. Fix it, then resume it on the Developer page.`,
      actionRoute: paths.dashboard.developer,
      kind: "other",
    });
}
