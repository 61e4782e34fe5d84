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

/** Body of POST /api/notifications/read: some ids, or all. */
export const markReadSchema = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkReadRequest = z.infer<typeof markReadSchema>;

export const updatedCountSchema = z.object({ updated: z.number().int() });
