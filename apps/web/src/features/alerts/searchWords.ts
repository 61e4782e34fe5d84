import { categoryName, coinCount, type SavedSearch, type TaskCategory } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { taskFiltersQuery } from "../../lib/taskFiltersQuery.ts";

/** What a saved search looks for: the task list's filters, without their order. */
export interface SearchFilters {
  q?: string;
  category?: TaskCategory;
  min_reward?: number;
}

/** A saved search's filters as the task list's (null is no filter). */
export const filtersOf = (search: Pick<SavedSearch, "q" | "category" | "min_reward">): SearchFilters => ({
  q: search.q ?? undefined,
  category: search.category ?? undefined,
  min_reward: search.min_reward ?? undefined,
});

/**
 * The filters in words, as the server names a search saved without a name ("review in Data
 * entry, at least 5 coins"); `quoted` marks the words as typed, for a list that shows them.
 */
export function searchInWords({ q, category, min_reward }: SearchFilters, quoted = false): string {
  const words = q ? (quoted ? `“${q}”` : q) : "";
  const where = category ? categoryName(category) : "";
  const what = words && where ? `${words} in ${where}` : words || where || "Any task";
  return min_reward ? `${what}, at least ${coinCount(min_reward)}` : what;
}

/** The task list showing a saved search's matches, its address as the list itself writes it. */
export function taskListOf(filters: SearchFilters): string {
  const query = new URLSearchParams(taskFiltersQuery({ ...filters, sort: "newest" }));
  query.delete("sort");
  return query.size > 0 ? `${paths.dashboard.taskList}?${query.toString()}` : paths.dashboard.taskList;
}
