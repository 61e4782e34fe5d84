import { queryOptions } from "@tanstack/react-query";
import type { ActiveSession, NotificationSettings } from "@taskmint/shared";
import { api } from "../../lib/api.ts";

const all = ["account"] as const;

/** What Profile's Security and Notifications sections show. */
export const accountQueries = {
  all,
  sessions: () =>
    queryOptions({
      queryKey: [...all, "sessions"],
      queryFn: () => api<ActiveSession[]>("/api/me/sessions"),
    }),
  notificationSettings: () =>
    queryOptions({
      queryKey: [...all, "notification-settings"],
      queryFn: () => api<NotificationSettings>("/api/me/notification-settings"),
    }),
};
