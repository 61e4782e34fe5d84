import { useQueryClient, type QueryKey } from "@tanstack/react-query";

/** A callback that marks the queries under each key stale (those on screen fetch again). */
export function useInvalidate(...queryKeys: QueryKey[]) {
  const client = useQueryClient();
  return () => Promise.all(queryKeys.map((queryKey) => client.invalidateQueries({ queryKey })));
}
