import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import {
  markReadSchema,
  notificationPageSchema,
  notificationSettingsSchema,
  notificationSettingsUpdateSchema,
  unsubscribedSchema,
  unsubscribeTokenSchema,
  updatedCountSchema,
} from "../notifications.ts";
import { pageQuerySchema } from "../paging.ts";

/** The bell's notifications, their live stream, and which of them also come by mail. */
export const notificationsEndpoints = {
  listNotifications: defineEndpoint({
    method: "GET",
    path: "/api/notifications",
    operationId: "listNotifications",
    access: "user",
    tags: ["notifications"],
    summary: "Your notifications, newest first, with the unread count",
    query: pageQuerySchema,
    response: { 200: notificationPageSchema },
  }),
  markNotificationsRead: defineEndpoint({
    method: "POST",
    path: "/api/notifications/read",
    operationId: "markNotificationsRead",
    access: "user",
    tags: ["notifications"],
    summary: "Mark your notifications read: some ids, or all",
    body: markReadSchema,
    response: { 200: updatedCountSchema },
  }),
  getNotificationSettings: defineEndpoint({
    method: "GET",
    path: "/api/me/notification-settings",
    operationId: "getNotificationSettings",
    access: "user",
    tags: ["notifications"],
    summary: "Which kinds of notification you also get by mail (the bell shows them all)",
    response: { 200: notificationSettingsSchema },
  }),
  updateNotificationSettings: defineEndpoint({
    method: "PUT",
    path: "/api/me/notification-settings",
    operationId: "updateNotificationSettings",
    access: "user",
    tags: ["notifications"],
    summary: "Choose mail or the bell only for some kinds; the others stay as they are",
    body: notificationSettingsUpdateSchema,
    response: { 200: notificationSettingsSchema },
  }),
  unsubscribeFromMail: defineEndpoint({
    method: "POST",
    path: "/api/unsubscribe",
    operationId: "unsubscribeFromMail",
    access: "public",
    tags: ["notifications"],
    summary: "Stop one kind of notification mail, from the signed link in such a mail (no sign-in)",
    query: z.object({ token: unsubscribeTokenSchema.optional() }).strict(),
    body: z
      .object({
        token: unsubscribeTokenSchema.optional(),
        "List-Unsubscribe": z.literal("One-Click").optional(),
      })
      .strict()
      .optional(),
    response: { 200: unsubscribedSchema },
  }),
  /** Server-Sent Events, not JSON: the web opens it with EventSource at `urlOf` this. */
  streamNotifications: defineEndpoint({
    method: "GET",
    path: "/api/notifications/stream",
    operationId: "streamNotifications",
    access: "user",
    tags: ["notifications"],
    summary:
      "Server-Sent Events: first `ready` (the newest notification's id as the stream began), then one `notification` event per new notification",
  }),
};
