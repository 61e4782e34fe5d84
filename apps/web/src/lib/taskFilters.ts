import { useSearchParams } from "react-router";
import { taskFiltersSchema, type TaskFilters } from "@taskmint/shared";
import { taskFiltersQuery } from "./taskFiltersQuery.ts";

const DEFAULT_FILTERS: TaskFilters = { sort: "newest" };

/**
 * A task browser's search, filters and order, kept in the page's address so a search can be
 * shared and survives a reload; an address the rules refuse reads as no filter.
 */
export function useTaskFilters() {
  const [params, setParams] = useSearchParams();
  // A field left empty (the form's own submission, before the app took over, sends them all) is no filter.
  const given = [...params].filter(([, value]) => value !== "");
  const parsed = taskFiltersSchema.safeParse(Object.fromEntries(given));
  const filters = parsed.success ? parsed.data : DEFAULT_FILTERS;
  const isFiltered = Boolean(filters.q || filters.category || filters.min_reward);
  const change = (next: Partial<TaskFilters>) => {
    const merged = { ...filters, ...next };
    const query = new URLSearchParams(taskFiltersQuery(merged));
    if (merged.sort === "newest") query.delete("sort");
    setParams(query, { replace: false });
  };
  return { filters, isFiltered, change, clear: () => setParams(new URLSearchParams()) };
}
