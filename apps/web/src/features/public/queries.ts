import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { CursorPage, Task, TaskSort, TopWorker } from "@taskmint/shared";
import { api } from "../../lib/api.ts";

const all = ["public"] as const;

/** What visitors see: the open tasks and the top workers. */
export const publicQueries = {
  all,
  tasks: (sort: TaskSort) =>
    infiniteQueryOptions({
      queryKey: [...all, "tasks", sort],
      queryFn: ({ pageParam }) =>
        api<CursorPage<Task>>(`/api/tasks?sort=${sort}&limit=12${pageParam ? `&cursor=${pageParam}` : ""}`),
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
