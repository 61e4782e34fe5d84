import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type {
  BuyerStats,
  LargePage,
  Page,
  Reservation,
  Submission,
  SubmissionStatus,
  Task,
  TaskDetails,
  TaskFilters,
  WorkerStats,
} from "@taskmint/shared";
import { api } from "../../lib/api.ts";
import { workQueriesRoot } from "../../lib/queryKeys.ts";
import { taskFiltersQuery } from "../../lib/taskFiltersQuery.ts";

const PAGE_SIZE = 10;
const pageQuery = (page: number, extra = "") => `?page=${page}&limit=${PAGE_SIZE}${extra}`;
const all = workQueriesRoot;

/** The tasks and submissions of workers and buyers; `all` is what a change to any of them invalidates. */
export const taskQueries = {
  all,
  detail: (id: string) =>
    queryOptions({
      queryKey: [...all, "detail", id],
      queryFn: () => api<TaskDetails>(`/api/tasks/${id}`),
    }),
  buyerTasks: (page: number) =>
    queryOptions({
      queryKey: [...all, "buyer-tasks", page],
      queryFn: () => api<Page<Task>>(`/api/buyer/tasks${pageQuery(page)}`),
      placeholderData: keepPreviousData,
    }),
  buyerStats: () =>
    queryOptions({ queryKey: [...all, "buyer-stats"], queryFn: () => api<BuyerStats>("/api/buyer/stats") }),
  reviewQueue: (page: number) =>
    queryOptions({
      queryKey: [...all, "review-queue", page],
      queryFn: () => api<Page<Submission>>(`/api/buyer/submissions${pageQuery(page, "&status=pending")}`),
      placeholderData: keepPreviousData,
    }),
  /** `cursorQuery` comes from useCursorPages(). */
  workerTasks: (filters: TaskFilters) => (cursorQuery: string) =>
    queryOptions({
      queryKey: [...all, "worker-tasks", filters, cursorQuery],
      queryFn: () =>
        api<LargePage<Task>>(
          `/api/worker/tasks?${taskFiltersQuery(filters)}&${cursorQuery}&limit=${PAGE_SIZE}`,
        ),
      placeholderData: keepPreviousData,
    }),
  workerSubmissions: (page: number, status?: SubmissionStatus) =>
    queryOptions({
      queryKey: [...all, "worker-submissions", page, status],
      queryFn: () =>
        api<Page<Submission>>(`/api/worker/submissions${pageQuery(page, status ? `&status=${status}` : "")}`),
      placeholderData: keepPreviousData,
    }),
  reservations: () =>
    queryOptions({
      queryKey: [...all, "reservations"],
      queryFn: () => api<Reservation[]>("/api/worker/reservations"),
    }),
  workerStats: () =>
    queryOptions({
      queryKey: [...all, "worker-stats"],
      queryFn: () => api<WorkerStats>("/api/worker/stats"),
    }),
};
