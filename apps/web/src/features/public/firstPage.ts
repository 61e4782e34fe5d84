import type { InfiniteData } from "@tanstack/react-query";
import type { TaskFilters, TaskSearchPage } from "@taskmint/shared";
import { FIRST_PAGE_DATA_ID } from "@taskmint/shared/html";

/** The list the server renders into All Tasks' HTML: no filter, newest first. */
export const FIRST_PAGE_FILTERS: TaskFilters = { sort: "newest" };

/**
 * The public list's first page the server put into this page's HTML (as JSON, beside the markup
 * it rendered from it), as the query's first data; taken once, so a later visit asks the API.
 */
export function takeEmbeddedFirstPage(): InfiniteData<TaskSearchPage, string> | undefined {
  // Rendered on the server, the page's data is already in the query cache.
  if (typeof document === "undefined") return undefined;
  const element = document.getElementById(FIRST_PAGE_DATA_ID);
  if (!element) return undefined;
  element.remove();
  try {
    return { pages: [JSON.parse(element.textContent) as TaskSearchPage], pageParams: [""] };
  } catch {
    return undefined;
  }
}
