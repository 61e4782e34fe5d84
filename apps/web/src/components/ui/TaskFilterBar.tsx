import { Search, SlidersHorizontal, X } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { TASK_CATEGORIES, taskSorts, type TaskCategory, type TaskSort } from "@taskmint/shared";
import { plural } from "../../lib/format.ts";
import type { useTaskFilters } from "../../lib/taskFilters.ts";
import { Dialog } from "./Dialog.tsx";

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

type Filters = ReturnType<typeof useTaskFilters>;

/** The category, least reward and order fields; `named` gives them the address's names (the form's own). */
function FilterFields({
  filters: { filters, change },
  minReward,
  setMinReward,
  applyReward,
  named,
  stacked,
}: {
  filters: Filters;
  minReward: string;
  setMinReward: (value: string) => void;
  applyReward: (event: FormEvent) => void;
  named: boolean;
  stacked: boolean;
}) {
  const id = useId();
  const label = (text: string, htmlFor: string) =>
    stacked ? (
      <label htmlFor={htmlFor} className="mb-1 block text-sm font-semibold">
        {text}
      </label>
    ) : null;
  return (
    <>
      <div>
        {label("Category", `${id}-category`)}
        <select
          id={`${id}-category`}
          name={named ? "category" : undefined}
          aria-label={stacked ? undefined : "Category"}
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
      </div>
      <div>
        {label("Least reward", `${id}-min`)}
        <label className="input w-full" htmlFor={`${id}-min`}>
          {!stacked && <span className="text-base-content/70">Least reward</span>}
          <input
            id={`${id}-min`}
            name={named ? "min_reward" : undefined}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={minReward}
            onChange={(event) => setMinReward(event.target.value)}
            onBlur={applyReward}
            placeholder="coins"
          />
          {stacked && <span className="text-base-content/70">coins</span>}
        </label>
      </div>
      <div>
        {label("Order", `${id}-sort`)}
        <select
          id={`${id}-sort`}
          name={named ? "sort" : undefined}
          aria-label={stacked ? undefined : "Order"}
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
      </div>
    </>
  );
}

/**
 * Search, category, least reward and order of a task browser. Words apply on Enter or the
 * button; the choices apply at once. Everything lives in the address (useTaskFilters), under
 * the fields' names, so the prerendered form submits the same search before the app takes over.
 * On phones the search stays and the rest folds into one "Filters" button that opens a sheet.
 */
export function TaskFilterBar({ filters: taskFilters }: { filters: Filters }) {
  const { filters, isFiltered, change, clear } = taskFilters;
  const sheetTitle = useId();
  const [words, setWords] = useState(filters.q ?? "");
  const [minReward, setMinReward] = useState(filters.min_reward ? String(filters.min_reward) : "");
  const [sheetOpen, setSheetOpen] = useState(false);
  // The sheet is drawn from its first opening on (not on every page load), then stays so that
  // closing it hands the focus back to the Filters button.
  const [sheetDrawn, setSheetDrawn] = useState(false);
  const search = (event: FormEvent) => {
    event.preventDefault();
    const reward = Number.parseInt(minReward, 10);
    change({ q: words.trim() || undefined, min_reward: reward >= 1 ? reward : undefined });
  };
  const clearAll = () => {
    setWords("");
    setMinReward("");
    clear();
  };
  // What the Filters button counts: the choices folded into the sheet that narrow or reorder the list.
  const chosen = [filters.category, filters.min_reward, filters.sort !== "newest"].filter(Boolean).length;
  const closeSheet = () => {
    const reward = Number.parseInt(minReward, 10);
    const wanted = reward >= 1 ? reward : undefined;
    if (wanted !== filters.min_reward) change({ min_reward: wanted });
    setSheetOpen(false);
  };
  const fieldProps = { filters: taskFilters, minReward, setMinReward, applyReward: search };
  return (
    <form
      role="search"
      onSubmit={search}
      className="mb-4 flex flex-wrap gap-3 sm:grid sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr]"
    >
      <label className="input min-w-0 flex-1 sm:col-span-2 sm:w-full lg:col-span-1">
        <Search className="size-4 shrink-0 opacity-70" aria-hidden="true" />
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
      <button
        type="button"
        className="btn shrink-0 sm:hidden"
        aria-haspopup="dialog"
        aria-label={chosen > 0 ? `Filters, ${chosen} on` : "Filters"}
        // Rendered on the server it does nothing until the app has taken over: say so.
        disabled={typeof document === "undefined"}
        onClick={() => {
          setSheetDrawn(true);
          setSheetOpen(true);
        }}
      >
        <SlidersHorizontal className="size-4" aria-hidden="true" />
        Filters
        {chosen > 0 && (
          <span className="badge badge-primary badge-sm" aria-hidden="true">
            {chosen}
          </span>
        )}
      </button>
      {/* Wide screens: the fields in the bar itself (and in the prerendered form, by their names). */}
      <div className="hidden sm:contents">
        <FilterFields {...fieldProps} named stacked={false} />
      </div>
      {isFiltered && (
        <button type="button" className="btn btn-ghost btn-sm justify-self-start" onClick={clearAll}>
          <X className="size-4" aria-hidden="true" />
          Clear filters
        </button>
      )}
      {sheetDrawn && (
        <Dialog
          open={sheetOpen}
          // Escape or the backdrop: the browser closed it; a button: closing it again is a no-op.
          onClose={() => sheetOpen && closeSheet()}
          labelledBy={sheetTitle}
          className="modal modal-bottom sm:hidden"
        >
          <div className="modal-box grid gap-4 pb-[max(1.5rem,env(safe-area-inset-bottom))]">
            <div className="flex items-center justify-between gap-3">
              <h2 id={sheetTitle} className="text-lg font-bold">
                Filters
              </h2>
              <button
                type="button"
                className="btn btn-ghost btn-circle"
                aria-label="Close filters"
                onClick={closeSheet}
              >
                <X aria-hidden="true" />
              </button>
            </div>
            <FilterFields {...fieldProps} named={false} stacked />
            <div className="grid grid-cols-2 gap-3">
              <button
                type="button"
                className="btn"
                disabled={!isFiltered && chosen === 0}
                onClick={() => {
                  clearAll();
                  setSheetOpen(false);
                }}
              >
                Clear all
              </button>
              <button type="button" className="btn btn-primary" onClick={closeSheet}>
                Show tasks
              </button>
            </div>
          </div>
          <div className="modal-backdrop">
            <button type="button" aria-label="Close filters" tabIndex={-1} onClick={closeSheet}>
              close
            </button>
          </div>
        </Dialog>
      )}
    </form>
  );
}
