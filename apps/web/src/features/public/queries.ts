import { infiniteQueryOptions } from "@tanstack/react-query";
import { tasksEndpoints, urlOf, type TaskFilters } from "@taskmint/shared";
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

/** What visitors see: the open tasks (the top workers' query is topWorkersQuery.ts). */
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
};
