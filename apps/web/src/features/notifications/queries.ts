import { queryOptions } from "@tanstack/react-query";
import { notificationsEndpoints, type AppNotification, type Page } from "@taskmint/shared";
import { call } from "../../lib/api.ts";

const all = ["notifications"] as const;

/** How many notifications a page of the Notifications page holds. */
export const NOTIFICATIONS_PER_PAGE = 20;

export const notificationQueries = {
  all,
  latest: () =>
    queryOptions({
      queryKey: [...all, "latest"],
      queryFn: () => call(notificationsEndpoints.listNotifications, { query: { limit: 10 } }),
    }),
  /** One page of every notification, newest first (the Notifications page). */
  page: (page: number) =>
    queryOptions({
      queryKey: [...all, "page", page],
      // A plain page (the unread count is the bell's, from `latest`).
      queryFn: (): Promise<Page<AppNotification>> =>
        call(notificationsEndpoints.listNotifications, { query: { page, limit: NOTIFICATIONS_PER_PAGE } }),
    }),
};
