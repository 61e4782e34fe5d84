import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { TaskFilters, TaskSearchPage, TopWorker } from "@taskmint/shared";
import { api } from "../../lib/api.ts";
import { taskFiltersQuery } from "../../lib/taskFiltersQuery.ts";

const all = ["public"] as const;

/** The address of a page of open tasks (the prerendered All Tasks page preloads the first). */
export const publicTasksUrl = (filters: TaskFilters, cursor = "") =>
  `/api/tasks?${taskFiltersQuery(filters)}&limit=12${cursor ? `&cursor=${cursor}` : ""}`;

/** What visitors see: the open tasks and the top workers. */
export const publicQueries = {
  all,
  tasks: (filters: TaskFilters) =>
    infiniteQueryOptions({
      queryKey: [...all, "tasks", filters],
      queryFn: ({ pageParam }) => api<TaskSearchPage>(publicTasksUrl(filters, pageParam)),
      initialPageParam: "",
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
  topWorkers: () =>
    queryOptions({
      queryKey: [...all, "top-workers"],
      queryFn: () => api<Partial<TopWorker>[]>("/api/workers/top"),
      retry: false,
    }),
};
