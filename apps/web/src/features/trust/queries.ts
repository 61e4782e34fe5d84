import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { appealsEndpoints, submissionsEndpoints, trustEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { workQueriesRoot } from "../../lib/queryKeys.ts";

const PAGE_SIZE = 10;

/**
 * Blocks, hidden buyers and appeals (issue 18). Under the tasks' key: a review, an appeal or a
 * block changes the same lists the task mutations refresh.
 */
export const trustQueries = {
  blocks: (page: number) =>
    queryOptions({
      queryKey: [...workQueriesRoot, "blocks", page],
      queryFn: () => call(trustEndpoints.listBlockedWorkers, { query: { page, limit: PAGE_SIZE } }),
      placeholderData: keepPreviousData,
    }),
  hiddenBuyers: (page: number) =>
    queryOptions({
      queryKey: [...workQueriesRoot, "hidden-buyers", page],
      queryFn: () => call(trustEndpoints.listHiddenBuyers, { query: { page, limit: PAGE_SIZE } }),
      placeholderData: keepPreviousData,
    }),
  /** The buyer's appeals waiting for an answer. */
  appealsToAnswer: (page: number) =>
    queryOptions({
      queryKey: [...workQueriesRoot, "appeals-to-answer", page],
      queryFn: () =>
        call(submissionsEndpoints.listBuyerSubmissions, {
          query: { page, limit: PAGE_SIZE, appeal: "open" },
        }),
      placeholderData: keepPreviousData,
    }),
  /** The admins' escalated appeals, the longest waiting first. */
  escalatedAppeals: (page: number) =>
    queryOptions({
      queryKey: [...workQueriesRoot, "escalated-appeals", page],
      queryFn: () => call(appealsEndpoints.listEscalatedAppeals, { query: { page, limit: PAGE_SIZE } }),
      placeholderData: keepPreviousData,
    }),
};
