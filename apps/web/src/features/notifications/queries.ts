import { queryOptions } from "@tanstack/react-query";
import type { NotificationPage } from "@taskmint/shared";
import { api } from "../../lib/api.ts";

const all = ["notifications"] as const;

export const notificationQueries = {
  all,
  latest: () =>
    queryOptions({
      queryKey: [...all, "latest"],
      queryFn: () => api<NotificationPage>("/api/notifications?limit=10"),
    }),
};
