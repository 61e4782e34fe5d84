import { z } from "zod";
import { MAX_PAYABLE_AMOUNT, taskCategorySchema } from "./tasks.ts";
import { queryTextSchema, textSchema } from "./text.ts";

// The worker's phone (issue 36): saved searches with their alerts, Web Push, quiet hours.

/** A worker keeps at most this many saved searches (then 409 LIMIT_REACHED). */
export const MAX_SAVED_SEARCHES = 20;
/** New matches of one saved search within this window fold into one notification. */
export const SAVED_SEARCH_FOLD_MINUTES = 60;

/** How a worker hears of a saved search's new matches. */
export const savedSearchAlertSchema = z
  .object({ bell: z.boolean(), mail: z.boolean(), push: z.boolean() })
  .strict();
export type SavedSearchAlert = z.infer<typeof savedSearchAlertSchema>;

const minRewardSchema = z
  .number({ error: "Least reward must be a number" })
  .int("Least reward must be a whole number of coins")
  .min(1, "Least reward must be at least 1 coin")
  .max(
    MAX_PAYABLE_AMOUNT,
    `Least reward must be at most ${MAX_PAYABLE_AMOUNT.toLocaleString("en-US")} coins`,
  );

/** Body of POST /api/me/saved-searches: the search (all optional: none matches every task) and its alert. */
export const createSavedSearchSchema = z
  .object({
    /** Named from the search when absent ("review in Data entry, at least 5 coins"). */
    name: textSchema("Name", { max: 60 }).optional(),
    q: queryTextSchema("Search", 200),
    category: taskCategorySchema.optional(),
    min_reward: minRewardSchema.optional(),
    alert: savedSearchAlertSchema.default({ bell: true, mail: false, push: false }),
  })
  .strict();
export type CreateSavedSearch = z.input<typeof createSavedSearchSchema>;

/** Body of PATCH /api/me/saved-searches/:id: the name or the alert (the search itself is saved anew). */
export const updateSavedSearchSchema = z
  .object({ name: textSchema("Name", { max: 60 }), alert: savedSearchAlertSchema })
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, "Name at least one field to change");
export type UpdateSavedSearch = z.infer<typeof updateSavedSearchSchema>;

export const savedSearchSchema = z.object({
  id: z.string(),
  name: z.string(),
  q: z.string().nullable(),
  category: taskCategorySchema.nullable(),
  min_reward: z.number().int().nullable(),
  alert: savedSearchAlertSchema,
  /** Open tasks this worker can take that match and were posted since the search was last seen. */
  new_matches: z.number().int(),
  last_seen_at: z.string(),
  created_at: z.string(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;

export const savedSearchListSchema = z.object({ items: z.array(savedSearchSchema) });

/** GET /api/push/public-key: the VAPID public key, base64url, for PushManager.subscribe. */
export const pushPublicKeySchema = z.object({ key: z.string() });

const base64url = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .max(max, `${label} is too long`)
    .regex(/^[A-Za-z0-9_-]+=*$/, `${label} must be base64url`);

/** Body of POST /api/me/push-subscriptions: a browser's PushSubscription.toJSON(). */
export const pushSubscriptionSchema = z
  .object({
    endpoint: z.url({ error: "The push endpoint must be a URL" }).max(2000, "The push endpoint is too long"),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: base64url("p256dh", 200), auth: base64url("auth", 100) }).strict(),
  })
  .strict();
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionSchema>;

export const pushSubscriptionCreatedSchema = z.object({ endpoint: z.string(), created_at: z.string() });

/** Body of DELETE /api/me/push-subscriptions. */
export const pushEndpointSchema = z.object({ endpoint: z.string().max(2000) }).strict();

/** What a push carries; the service worker shows it, and a tap opens `url` (a path of the app). */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  /** Pushes with the same tag replace each other on the phone (one per saved search). */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use a time as HH:MM");
const timeZoneSchema = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "Unknown time zone");

/**
 * GET/PUT /api/me/quiet-hours: no pushes between `from` and `to` in the worker's time zone (the
 * bell and mail still come). `from` later than `to` spans midnight.
 */
export const quietHoursSchema = z
  .object({ enabled: z.boolean(), from: clockTime, to: clockTime, time_zone: timeZoneSchema })
  .strict()
  .refine((hours) => !hours.enabled || hours.from !== hours.to, {
    message: "Quiet hours must start and end at different times",
    path: ["to"],
  });
export type QuietHours = z.infer<typeof quietHoursSchema>;
