import { Search, X } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { TASK_CATEGORIES, taskSorts, type TaskCategory, type TaskSort } from "@taskmint/shared";
import { plural } from "../../lib/format.ts";
import type { useTaskFilters } from "../../lib/taskFilters.ts";

/** The orders as the browsers offer them. */
const SORT_LABELS: Record<TaskSort, string> = {
  newest: "Newest",
  price_desc: "Highest reward",
  price_asc: "Lowest reward",
  pay_per_hour: "Best pay per hour",
  ending_soon: "Ending soon",
};

/** "12 tasks", "1,000+ tasks": the matches the server counted, capped. */
export const resultCount = (total: number, capped: boolean) =>
  capped ? `${total.toLocaleString("en-US")}+ tasks` : plural(total, "task");

/**
 * Search, category, least reward and order of a task browser. Words apply on Enter or the
 * button; the choices apply at once. Everything lives in the address (useTaskFilters), under
 * the fields' names, so the prerendered form submits the same search before the app takes over.
 */
export function TaskFilterBar({
  filters: { filters, isFiltered, change, clear },
}: {
  filters: ReturnType<typeof useTaskFilters>;
}) {
  const id = useId();
  const [words, setWords] = useState(filters.q ?? "");
  const [minReward, setMinReward] = useState(filters.min_reward ? String(filters.min_reward) : "");
  const search = (event: FormEvent) => {
    event.preventDefault();
    const reward = Number.parseInt(minReward, 10);
    change({ q: words.trim() || undefined, min_reward: reward >= 1 ? reward : undefined });
  };
  return (
    <form
      role="search"
      onSubmit={search}
      className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr]"
    >
      <label className="input w-full sm:col-span-2 lg:col-span-1">
        <Search className="size-4 opacity-70" aria-hidden="true" />
        <input
          type="search"
          name="q"
          value={words}
          onChange={(event) => setWords(event.target.value)}
          placeholder="Search tasks"
          aria-label="Search tasks"
          maxLength={200}
        />
        <button type="submit" className="btn btn-ghost btn-sm -mr-2" aria-label="Search">
          Search
        </button>
      </label>
      <select
        name="category"
        aria-label="Category"
        className="select w-full"
        value={filters.category ?? ""}
        onChange={(event) =>
          change({ category: (event.target.value || undefined) as TaskCategory | undefined })
        }
      >
        <option value="">All categories</option>
        {TASK_CATEGORIES.map((category) => (
          <option key={category.id} value={category.id}>
            {category.name}
          </option>
        ))}
      </select>
      <label className="input w-full" htmlFor={`${id}-min`}>
        <span className="text-base-content/70">Least reward</span>
        <input
          id={`${id}-min`}
          name="min_reward"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={minReward}
          onChange={(event) => setMinReward(event.target.value)}
          onBlur={search}
          placeholder="coins"
        />
      </label>
      <select
        name="sort"
        aria-label="Order"
        className="select w-full"
        value={filters.sort}
        onChange={(event) => change({ sort: event.target.value as TaskSort })}
      >
        {taskSorts.map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </select>
      {isFiltered && (
        <button
          type="button"
          className="btn btn-ghost btn-sm justify-self-start"
          onClick={() => {
            setWords("");
            setMinReward("");
            clear();
          }}
        >
          <X className="size-4" aria-hidden="true" />
          Clear filters
        </button>
      )}
    </form>
  );
}
