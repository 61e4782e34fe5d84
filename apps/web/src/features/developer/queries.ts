import { queryOptions } from "@tanstack/react-query";
import { apiKeysEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";

const all = ["developer"] as const;

/** What the Developer page shows: the buyer's keys, webhook endpoints and their deliveries, batches. */
export const developerQueries = {
  all,
  apiKeys: () =>
    queryOptions({
      queryKey: [...all, "api-keys"],
      queryFn: () => call(apiKeysEndpoints.listApiKeys),
    }),
};
