import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, sql, type SQLWrapper } from "drizzle-orm";
import {
  MAX_WEBHOOKS_PER_BUYER,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEST_EVENT,
  type CreatedWebhook,
  type CreateWebhookRequest,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryDetail,
  type DeliveryPage,
  type UpdateWebhookRequest,
  type Webhook,
  type WebhookEvent,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { users, webhookDeliveries, webhookEndpoints } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { enqueueJobs } from "../../lib/job-queue.ts";
import { afterCursor, decodeCursor, encodeCursor } from "../../lib/keyset.ts";
import { checkOutboundUrl } from "../../lib/outbound-urls.ts";

// Issue 35, point 4 (decision 035): a buyer's webhook endpoints, their deliveries, and the
// events other modules queue in the transaction (or statement) of their change.

/** The job kind that runs one delivery; queue_webhook_event (migration 0028) writes it too. */
export const WEBHOOK_JOB = "webhook";
const RETRY_MS = WEBHOOK_RETRY_HOURS * 3_600_000;

export { webhookJob } from "./delivery.ts";

/** The event as an SQL expression, for a change made in one statement (like notifySql). */
export function webhookEventSql(
  buyerId: string | SQLWrapper,
  type: WebhookEvent,
  data: SQLWrapper,
  now: Date,
) {
  return sql`queue_webhook_event(${buyerId}, ${type}, ${data}, ${now.toISOString()}::timestamptz)`;
}

/** A submission's event (and task.completed when it decided the task's last slot), as an SQL expression. */
export function submissionWebhooksSql(
  ids: {
    buyerId: string | SQLWrapper;
    submissionId: string | SQLWrapper;
    taskId: string | SQLWrapper;
    workerId: string | SQLWrapper;
  },
  type: "submission.created" | "submission.approved" | "submission.rejected" | "submission.appealed",
  now: Date | SQLWrapper,
) {
  const at = now instanceof Date ? sql`${now.toISOString()}::timestamptz` : now;
  return sql`queue_submission_webhooks(${ids.buyerId}, ${ids.submissionId}, ${ids.taskId}, ${ids.workerId}, ${type}, ${at})`;
}

/** Queues an event for the buyer's subscribed endpoints, in `db` (the change's transaction). */
export async function queueWebhookEvent(
  db: Database,
  event: { buyerId: string; type: WebhookEvent; data: Record<string, string>; now: Date },
) {
  const data = sql`${JSON.stringify(event.data)}::jsonb`;
  await db.execute(sql`select ${webhookEventSql(event.buyerId, event.type, data, event.now)}`);
}

/** queueWebhookEvent for a submission's event, in `db` (the change's transaction). */
export async function queueSubmissionWebhooks(
  db: Database,
  event: { buyerId: string; submissionId: string; taskId: string; workerId: string; now: Date },
  type: Parameters<typeof submissionWebhooksSql>[1],
) {
  await db.execute(sql`select ${submissionWebhooksSql(event, type, event.now)}`);
}

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const webhookView = (row: EndpointRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events as WebhookEvent[],
  status: row.status,
  paused_at: row.pausedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

const deliveryView = (row: DeliveryRow): Delivery => ({
  id: row.id,
  event_id: row.eventId,
  event: row.event as Delivery["event"],
  status: row.status,
  attempts: row.attempts,
  last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
  next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  created_at: row.createdAt.toISOString(),
});

async function ownedEndpoint(db: Database, buyerId: string, id: string, lock = false) {
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.buyerId, buyerId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Webhook");
  return row;
}

/** POST /api/buyer/webhooks: a new endpoint with its secret, answered once. */
export async function createWebhook(
  db: Database,
  input: CreateWebhookRequest & { buyerId: string; now: Date; production: boolean },
): Promise<CreatedWebhook> {
  const url = checkOutboundUrl(input.url, input.production).toString();
  return db.transaction(async (tx) => {
    // The buyer's row is locked while the endpoints are counted: parallel creates cannot pass the limit.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.buyerId)).for("no key update");
    if (
      (await tx.$count(webhookEndpoints, eq(webhookEndpoints.buyerId, input.buyerId))) >=
      MAX_WEBHOOKS_PER_BUYER
    )
      throw new AppError(
        "LIMIT_REACHED",
        `You have ${MAX_WEBHOOKS_PER_BUYER} webhook endpoints, the most one account may hold: remove one first`,
        { limit: MAX_WEBHOOKS_PER_BUYER },
      );
    const secret = `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id: randomUUID(),
        buyerId: input.buyerId,
        url,
        events: input.events,
        secret,
        createdAt: input.now,
      })
      .returning();
    return { ...webhookView(row!), secret };
  });
}

/** GET /api/buyer/webhooks: newest first (at most MAX_WEBHOOKS_PER_BUYER). */
export async function listWebhooks(db: Database, buyerId: string): Promise<Webhook[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.buyerId, buyerId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  return rows.map(webhookView);
}

/** PATCH /api/buyer/webhooks/:id: `active` pauses or resumes (a resumed endpoint starts with a clean record). */
export async function updateWebhook(
  db: Database,
  input: { buyerId: string; id: string; change: UpdateWebhookRequest; now: Date; production: boolean },
): Promise<Webhook> {
  const { change } = input;
  const url =
    change.url === undefined ? undefined : checkOutboundUrl(change.url, input.production).toString();
  await ownedEndpoint(db, input.buyerId, input.id);
  const status =
    change.active === undefined
      ? {}
      : change.active
        ? { status: "active" as const, pausedAt: null, failingSince: null }
        : { status: "paused" as const, pausedAt: input.now };
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...(url ? { url } : {}), ...(change.events ? { events: change.events } : {}), ...status })
    .where(and(eq(webhookEndpoints.id, input.id), eq(webhookEndpoints.buyerId, input.buyerId)))
    .returning();
  if (!row) throw notFound("Webhook");
  return webhookView(row);
}

/** DELETE /api/buyer/webhooks/:id: the endpoint and its deliveries; their jobs end unsent. */
export async function deleteWebhook(db: Database, input: { buyerId: string; id: string }) {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, input.id), eq(webhookEndpoints.buyerId, input.buyerId)))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw notFound("Webhook");
}

/** POST /api/buyer/webhooks/:id/test: a `webhook.test` delivery to this endpoint, paused or not subscribed. */
export async function testWebhook(
  db: Database,
  input: { buyerId: string; id: string; now: Date },
): Promise<Delivery> {
  return db.transaction(async (tx) => {
    const endpoint = await ownedEndpoint(tx, input.buyerId, input.id);
    if (endpoint.status === "paused") throw pausedEndpoint();
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        id: randomUUID(),
        webhookId: endpoint.id,
        eventId: `msg_${randomUUID().replaceAll("-", "")}`,
        event: WEBHOOK_TEST_EVENT,
        payload: {
          type: WEBHOOK_TEST_EVENT,
          timestamp: input.now.toISOString(),
          data: { webhook_id: endpoint.id },
        },
        status: "pending",
        nextAttemptAt: input.now,
        retryUntil: new Date(input.now.getTime() + RETRY_MS),
        createdAt: input.now,
      })
      .returning();
    await enqueueJobs(tx, [{ kind: WEBHOOK_JOB, payload: { deliveryId: row!.id }, now: input.now }]);
    return deliveryView(row!);
  });
}

const pausedEndpoint = () =>
  new AppError("CONFLICT", "This endpoint is paused: resume it first (PATCH with active: true)");

/** GET /api/buyer/webhooks/:id/deliveries: newest first, keyset-paged. */
export async function listDeliveries(
  db: Database,
  input: { buyerId: string; webhookId: string; cursor?: string; limit: number },
): Promise<DeliveryPage> {
  await ownedEndpoint(db, input.buyerId, input.webhookId);
  const after = input.cursor ? decodeCursor(input.cursor, "timestamp") : null;
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.webhookId, input.webhookId),
        after
          ? afterCursor(webhookDeliveries.createdAt, webhookDeliveries.id, after, "timestamp", "desc")
          : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = rows.length > input.limit ? page.at(-1) : undefined;
  return {
    items: page.map(deliveryView),
    next_cursor: last ? encodeCursor({ value: last.createdAt.toISOString(), id: last.id }) : null,
  };
}

async function ownedDelivery(db: Database, buyerId: string, id: string, lock = false) {
  const query = db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.webhookId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookEndpoints.buyerId, buyerId)));
  const [row] = lock ? await query.for("update", { of: webhookDeliveries }) : await query;
  if (!row) throw notFound("Delivery");
  return row;
}

/** GET /api/buyer/webhooks/deliveries/:id: what was sent and every attempt. */
export async function getDelivery(
  db: Database,
  input: { buyerId: string; id: string },
): Promise<DeliveryDetail> {
  const { delivery } = await ownedDelivery(db, input.buyerId, input.id);
  return {
    ...deliveryView(delivery),
    webhook_id: delivery.webhookId,
    payload: delivery.payload as DeliveryDetail["payload"],
    attempt_log: delivery.attemptLog as DeliveryAttempt[],
  };
}

/**
 * POST /api/buyer/webhooks/deliveries/:id/resend: sent again now with the same webhook-id, retried
 * for another day. One still pending is being retried already: 409, so it is never sent twice at once.
 */
export async function resendDelivery(
  db: Database,
  input: { buyerId: string; id: string; now: Date },
): Promise<Delivery> {
  return db.transaction(async (tx) => {
    const { delivery, endpoint } = await ownedDelivery(tx, input.buyerId, input.id, true);
    if (delivery.status === "pending")
      throw new AppError("CONFLICT", "This delivery is still being retried: it is sent again on its own");
    if (endpoint.status === "paused") throw pausedEndpoint();
    const [row] = await tx
      .update(webhookDeliveries)
      .set({
        status: "pending",
        nextAttemptAt: input.now,
        retryUntil: new Date(input.now.getTime() + RETRY_MS),
      })
      .where(eq(webhookDeliveries.id, delivery.id))
      .returning();
    await enqueueJobs(tx, [{ kind: WEBHOOK_JOB, payload: { deliveryId: delivery.id }, now: input.now }]);
    return deliveryView(row!);
  });
}
