import { z } from "zod";
import { cursorPageOf, cursorSchema, MAX_PAGE_LIMIT } from "./paging.ts";

// Issue 35, item 4 (decision 035): a buyer's signed webhooks, delivered by the Standard Webhooks
// specification (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256>).

/** What a buyer may subscribe an endpoint to. */
export const webhookEvents = [
  "submission.created",
  "submission.approved",
  "submission.rejected",
  "submission.appealed",
  "task.completed",
  "task.expired",
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

/** The event "send test event" delivers; it goes to the one endpoint asked, subscribed or not. */
export const WEBHOOK_TEST_EVENT = "webhook.test";
export const deliveryEvents = [...webhookEvents, WEBHOOK_TEST_EVENT] as const;

/** How many endpoints a buyer may register; the next is 409 LIMIT_REACHED. */
export const MAX_WEBHOOKS_PER_BUYER = 10;
/** How long a delivery is retried (with backoff) before it is given up as failed. */
export const WEBHOOK_RETRY_HOURS = 24;
/** An endpoint whose deliveries have all failed for this long is paused, and its buyer notified. */
export const WEBHOOK_PAUSE_AFTER_HOURS = 24;
/** What every signing secret starts with (Standard Webhooks). */
export const WEBHOOK_SECRET_PREFIX = "whsec_";

const webhookUrlSchema = z
  .string({ error: "A URL is required" })
  .trim()
  .max(2_000, "The URL must be at most 2000 characters")
  .pipe(z.url({ protocol: /^https?$/, error: "The URL must be an http(s) address" }));

const eventsSchema = z
  .array(z.enum(webhookEvents, { error: `Events are among ${webhookEvents.join(", ")}` }))
  .min(1, "Choose at least one event")
  .max(webhookEvents.length)
  .refine((events) => new Set(events).size === events.length, "Each event once");

/**
 * Body of POST /api/buyer/webhooks. The URL must be https, or http to a loopback address
 * outside production; in production private-network addresses are refused (checked by the server).
 */
export const createWebhookSchema = z.object({ url: webhookUrlSchema, events: eventsSchema }).strict();
export type CreateWebhookRequest = z.input<typeof createWebhookSchema>;

/** Body of PATCH /api/buyer/webhooks/:id: `active: true` resumes a paused endpoint. */
export const updateWebhookSchema = z
  .object({
    url: webhookUrlSchema.optional(),
    events: eventsSchema.optional(),
    active: z.boolean().optional(),
  })
  .strict();
export type UpdateWebhookRequest = z.input<typeof updateWebhookSchema>;

export const webhookStatuses = ["active", "paused"] as const;

/** An endpoint as its owner sees it: never its secret after creation. */
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(webhookEvents)),
  /** `paused` by its owner, or by the server after a day of failed deliveries (`paused_at` says when). */
  status: z.enum(webhookStatuses),
  paused_at: z.string().nullable(),
  created_at: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** Answer of creating an endpoint: its signing secret (`whsec_` and base64), shown this once. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** `pending` while it is retried; `succeeded` on a 2xx; `failed` once the retries ran out. */
export const deliveryStatuses = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** One delivery of one event to one endpoint. */
export const deliverySchema = z.object({
  id: z.string(),
  /** The `webhook-id` header: the same on every attempt and every resend. */
  event_id: z.string(),
  event: z.enum(deliveryEvents),
  status: z.enum(deliveryStatuses),
  attempts: z.number().int(),
  last_attempt_at: z.string().nullable(),
  /** When the next attempt is due, while pending. */
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** One attempt of a delivery: the HTTP status answered, or why there was none. */
export const deliveryAttemptSchema = z.object({
  at: z.string(),
  response_status: z.number().int().nullable(),
  /** A timeout, a refused connection, a redirect (not followed), ... */
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

/** A delivery with what was sent (the JSON body) and every attempt, oldest first. */
export const deliveryDetailSchema = deliverySchema.extend({
  webhook_id: z.string(),
  payload: z.object({ type: z.string(), timestamp: z.string(), data: z.record(z.string(), z.unknown()) }),
  attempt_log: z.array(deliveryAttemptSchema),
});
export type DeliveryDetail = z.infer<typeof deliveryDetailSchema>;

export const deliveriesQuerySchema = z.object({
  cursor: cursorSchema,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(20),
});
export const deliveryPageSchema = cursorPageOf(deliverySchema);
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;
