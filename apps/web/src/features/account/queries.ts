import { queryOptions } from "@tanstack/react-query";
import type { ActiveSession } from "@taskmint/shared";
import { api } from "../../lib/api.ts";

const all = ["account"] as const;

/** What Profile's Security section shows. */
export const accountQueries = {
  all,
  sessions: () =>
    queryOptions({
      queryKey: [...all, "sessions"],
      queryFn: () => api<ActiveSession[]>("/api/me/sessions"),
    }),
};
