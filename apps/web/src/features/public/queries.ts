import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { statsEndpoints, tasksEndpoints, urlOf, type TaskFilters } from "@taskmint/shared";
import { call } from "../../lib/api.ts";

const all = ["public"] as const;

/** The query of a page of open tasks: the filters, then the page's size and cursor. */
const publicTasksQuery = (filters: TaskFilters, cursor: string) => ({
  ...filters,
  limit: 12,
  cursor: cursor || undefined,
});

/** The address of a page of open tasks (the prerendered All Tasks page preloads the first). */
export const publicTasksUrl = (filters: TaskFilters, cursor = "") =>
  urlOf(tasksEndpoints.listTasks, { query: publicTasksQuery(filters, cursor) });

/** What visitors see: the open tasks and the top workers. */
export const publicQueries = {
  all,
  tasks: (filters: TaskFilters) =>
    infiniteQueryOptions({
      queryKey: [...all, "tasks", filters],
      queryFn: ({ pageParam }) =>
        call(tasksEndpoints.listTasks, { query: publicTasksQuery(filters, pageParam) }),
      initialPageParam: "",
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
  topWorkers: () =>
    queryOptions({
      queryKey: [...all, "top-workers"],
      queryFn: () => call(statsEndpoints.listTopWorkers),
      retry: false,
    }),
};
