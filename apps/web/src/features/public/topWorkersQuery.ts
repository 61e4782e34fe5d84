import { queryOptions } from "@tanstack/react-query";
import { statsEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";

/**
 * The top workers on Home. Apart from queries.ts, whose task schemas Home's top workers do not
 * need: evaluating them cost a long task on a phone.
 */
export const topWorkersQuery = () =>
  queryOptions({
    queryKey: ["public", "top-workers"],
    queryFn: () => call(statsEndpoints.listTopWorkers),
    retry: false,
  });
