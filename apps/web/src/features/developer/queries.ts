import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";
import { apiKeysEndpoints, batchesEndpoints, webhooksEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";

const all = ["developer"] as const;
const webhooks = [...all, "webhooks"] as const;

/** What the Developer page shows: the buyer's keys, webhook endpoints and their deliveries, batches. */
export const developerQueries = {
  all,
  apiKeys: () =>
    queryOptions({
      queryKey: [...all, "api-keys"],
      queryFn: () => call(apiKeysEndpoints.listApiKeys),
    }),
  /** The endpoints and, under the same root, their deliveries: a change to one refreshes both. */
  webhooksRoot: webhooks,
  webhooks: () =>
    queryOptions({
      queryKey: [...webhooks, "list"],
      queryFn: () => call(webhooksEndpoints.listWebhooks),
    }),
  /**
   * One endpoint's deliveries, newest first, 10 at a time. Polled while shown: deliveries are
   * made and retried by the server's queue, which tells the page nothing.
   */
  deliveries: (webhookId: string) =>
    infiniteQueryOptions({
      queryKey: [...webhooks, "deliveries", webhookId],
      queryFn: ({ pageParam }) =>
        call(webhooksEndpoints.listWebhookDeliveries, {
          params: { id: webhookId },
          query: { limit: 10, cursor: pageParam || undefined },
        }),
      initialPageParam: "",
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      refetchInterval: 5_000,
    }),
  batchesRoot: [...all, "batches"] as const,
  batches: (page: number) =>
    queryOptions({
      queryKey: [...all, "batches", page],
      queryFn: () => call(batchesEndpoints.listBatches, { query: { page, limit: 10 } }),
      placeholderData: keepPreviousData,
    }),
};
