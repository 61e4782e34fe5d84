import type { TaskFilters } from "@taskmint/shared";

/**
 * The filters as an API query string, in a fixed order (the prerendered page preloads one of
 * them). A module of its own, without the filters' schema, so Home's first script stays small.
 */
export function taskFiltersQuery(filters: TaskFilters): string {
  const params = new URLSearchParams({ sort: filters.sort });
  if (filters.q) params.set("q", filters.q);
  if (filters.category) params.set("category", filters.category);
  if (filters.min_reward) params.set("min_reward", String(filters.min_reward));
  return params.toString();
}
