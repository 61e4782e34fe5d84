import { queryOptions } from "@tanstack/react-query";
import { notificationsEndpoints, sessionsEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";

const all = ["account"] as const;

/** What Profile's Security and Notifications sections show. */
export const accountQueries = {
  all,
  sessions: () =>
    queryOptions({
      queryKey: [...all, "sessions"],
      queryFn: () => call(sessionsEndpoints.listMySessions),
    }),
  notificationSettings: () =>
    queryOptions({
      queryKey: [...all, "notification-settings"],
      queryFn: () => call(notificationsEndpoints.getNotificationSettings),
    }),
};
