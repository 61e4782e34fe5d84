import { useInfiniteQuery } from "@tanstack/react-query";
import type { CursorPage, Task, TaskSort } from "@taskmint/shared";
import { api } from "../../lib/api.ts";

export const usePublicTasks = (sort: TaskSort) =>
  useInfiniteQuery({
    queryKey: ["public-tasks", sort],
    queryFn: ({ pageParam }) =>
      api<CursorPage<Task>>(`/api/tasks?sort=${sort}&limit=12${pageParam ? `&cursor=${pageParam}` : ""}`),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
