import { queryOptions } from "@tanstack/react-query";
import { pushEndpoints, savedSearchesEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";

const all = ["alerts"] as const;

/** What the Saved searches page shows: the worker's searches and their quiet hours. */
export const alertsQueries = {
  all,
  savedSearches: () =>
    queryOptions({
      queryKey: [...all, "saved-searches"],
      queryFn: () => call(savedSearchesEndpoints.listSavedSearches),
      select: (answer) => answer.items,
    }),
  quietHours: () =>
    queryOptions({
      queryKey: [...all, "quiet-hours"],
      queryFn: () => call(pushEndpoints.getQuietHours),
    }),
};
