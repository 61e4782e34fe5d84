import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  reservationsEndpoints,
  statsEndpoints,
  submissionsEndpoints,
  tasksEndpoints,
  type LargePage,
  type SubmissionStatus,
  type Task,
  type TaskFilters,
} from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import type { KeysetPage } from "../../lib/cursorPages.ts";
import { workQueriesRoot } from "../../lib/queryKeys.ts";

const PAGE_SIZE = 10;
const all = workQueriesRoot;

/** The tasks and submissions of workers and buyers; `all` is what a change to any of them invalidates. */
export const taskQueries = {
  all,
  detail: (id: string) =>
    queryOptions({
      queryKey: [...all, "detail", id],
      queryFn: () => call(tasksEndpoints.getTask, { params: { id } }),
    }),
  buyerTasks: (page: number) =>
    queryOptions({
      queryKey: [...all, "buyer-tasks", page],
      queryFn: () => call(tasksEndpoints.listBuyerTasks, { query: { page, limit: PAGE_SIZE } }),
      placeholderData: keepPreviousData,
    }),
  buyerStats: () =>
    queryOptions({ queryKey: [...all, "buyer-stats"], queryFn: () => call(statsEndpoints.getBuyerStats) }),
  reviewQueue: (page: number) =>
    queryOptions({
      queryKey: [...all, "review-queue", page],
      queryFn: () =>
        call(submissionsEndpoints.listBuyerSubmissions, {
          query: { page, limit: PAGE_SIZE, status: "pending" },
        }),
      placeholderData: keepPreviousData,
    }),
  /** `keysetPage` comes from useCursorPages(). */
  workerTasks: (filters: TaskFilters) => (keysetPage: KeysetPage) =>
    queryOptions({
      queryKey: [...all, "worker-tasks", filters, keysetPage],
      // A large page (and an estimate the list does not show), as the paged list takes it.
      queryFn: (): Promise<LargePage<Task>> =>
        call(tasksEndpoints.listWorkerTasks, {
          query: { ...filters, ...keysetPage, limit: PAGE_SIZE },
        }),
      placeholderData: keepPreviousData,
    }),
  workerSubmissions: (page: number, status?: SubmissionStatus) =>
    queryOptions({
      queryKey: [...all, "worker-submissions", page, status],
      queryFn: () =>
        call(submissionsEndpoints.listWorkerSubmissions, { query: { page, limit: PAGE_SIZE, status } }),
      placeholderData: keepPreviousData,
    }),
  reservations: () =>
    queryOptions({
      queryKey: [...all, "reservations"],
      queryFn: () => call(reservationsEndpoints.listMyReservations),
    }),
  workerStats: () =>
    queryOptions({
      queryKey: [...all, "worker-stats"],
      queryFn: () => call(statsEndpoints.getWorkerStats),
    }),
};
