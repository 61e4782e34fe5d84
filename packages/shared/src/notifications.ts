import { z } from "zod";
import { pageOf } from "./paging.ts";

export const notificationSchema = z.object({
  id: z.string(),
  message: z.string(),
  /** A page of the web app (a path from routes.ts) that the message links to. */
  action_route: z.string(),
  read: z.boolean(),
  created_at: z.string(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

export const notificationPageSchema = pageOf(notificationSchema).extend({ unread: z.number().int() });
export type NotificationPage = z.infer<typeof notificationPageSchema>;

/**
 * The stream's first event: the id of the user's newest notification when the stream began
 * listening. A page that read its notifications before that and saw another newest one missed
 * what came in between (the stream sends only what comes after).
 */
export const streamReadySchema = z.object({ latest_id: z.string().nullable() });
export type StreamReady = z.infer<typeof streamReadySchema>;

/** Body of POST /api/notifications/read: some ids, or all. */
export const markReadSchema = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkReadRequest = z.infer<typeof markReadSchema>;

export const updatedCountSchema = z.object({ updated: z.number().int() });

/**
 * The kinds of notification a user may also receive by mail (rule R29), each with the channel
 * it has until the user chooses: a buyer's task may draw hundreds of submissions, so those stay
 * on the bell unless asked for. Every other notification (a reservation ran out, coins credited)
 * is on the bell only. The same defaults are in notify_user (migration 0021); a test keeps them equal.
 */
export const MAIL_KINDS = {
  work_submitted: { label: "Work submitted to my tasks", byDefault: "bell" },
  work_decided: { label: "My work approved or rejected", byDefault: "mail" },
  bonus_received: { label: "Bonuses I receive", byDefault: "mail" },
  appeal_updates: { label: "Appeals I am part of", byDefault: "mail" },
  withdrawal_decided: { label: "My withdrawals paid or rejected", byDefault: "mail" },
} as const;
export type MailKind = keyof typeof MAIL_KINDS;
export const mailKinds = Object.keys(MAIL_KINDS) as MailKind[];
/** `saved_search_match`: a saved search's alert (issue 36), mailed as the search chooses, not by these settings. */
export type NotificationKind = MailKind | "saved_search_match" | "other";

export const notificationChannelSchema = z.enum(["mail", "bell"]);
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

const mailKindSchema = z.enum(mailKinds as [MailKind, ...MailKind[]]);

/** GET /api/me/notification-settings: every kind with its channel. */
export const notificationSettingsSchema = z.object(
  Object.fromEntries(mailKinds.map((kind) => [kind, notificationChannelSchema])) as Record<
    MailKind,
    typeof notificationChannelSchema
  >,
);
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** Body of PUT /api/me/notification-settings: the kinds to change; the others stay. */
export const notificationSettingsUpdateSchema = notificationSettingsSchema
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, "Name at least one kind to change");
export type NotificationSettingsUpdate = z.infer<typeof notificationSettingsUpdateSchema>;

/** A signed one-click unsubscribe token from a notification mail: `<user id>.<kind>.<signature>`. */
export const unsubscribeTokenSchema = z
  .string()
  .max(300)
  .regex(/^[A-Za-z0-9-]+\.[a-z_]+\.[A-Za-z0-9_-]+$/, "This unsubscribe link is invalid");

/** Body of POST /api/unsubscribe (the web page's button; mail clients send the token in the query). */
export const unsubscribeSchema = z.object({ token: unsubscribeTokenSchema }).strict();

export const unsubscribedSchema = z.object({
  kind: mailKindSchema,
  label: z.string(),
  channel: z.literal("bell"),
});
export type Unsubscribed = z.infer<typeof unsubscribedSchema>;
