import { queryOptions } from "@tanstack/react-query";
import { notificationsEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";

const all = ["notifications"] as const;

export const notificationQueries = {
  all,
  latest: () =>
    queryOptions({
      queryKey: [...all, "latest"],
      queryFn: () => call(notificationsEndpoints.listNotifications, { query: { limit: 10 } }),
    }),
};
