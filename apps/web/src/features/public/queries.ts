import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { CursorPage, Task, TaskSort, TopWorker } from "@taskmint/shared";
import { api } from "../../lib/api.ts";

const all = ["public"] as const;

/** The address of a page of open tasks (the prerendered All Tasks page preloads the first). */
export const publicTasksUrl = (sort: TaskSort, cursor = "") =>
  `/api/tasks?sort=${sort}&limit=12${cursor ? `&cursor=${cursor}` : ""}`;

/** What visitors see: the open tasks and the top workers. */
export const publicQueries = {
  all,
  tasks: (sort: TaskSort) =>
    infiniteQueryOptions({
      queryKey: [...all, "tasks", sort],
      queryFn: ({ pageParam }) => api<CursorPage<Task>>(publicTasksUrl(sort, pageParam)),
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
