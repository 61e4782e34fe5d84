import { useState } from "react";
import type { LargePage } from "@taskmint/shared";

/**
 * Page numbers over a keyset-paged list (api: `cursor` and `next_cursor`): remembers the cursor
 * that starts each page visited, so Next and Previous cost the server the same on page 1 or 500.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  const page = cursors.length + 1;
  return {
    page,
    /** The query string for the page shown. */
    query: `page=${page}${cursors.length > 0 ? `&cursor=${cursors[cursors.length - 1]}` : ""}`,
    /** Moves to `target` from the page shown: forward one page along its next_cursor, or back. */
    go(target: number, shown: LargePage<unknown> | undefined) {
      if (target === page + 1 && shown?.next_cursor) setCursors([...cursors, shown.next_cursor]);
      else if (target < page) setCursors(cursors.slice(0, Math.max(0, target - 1)));
    },
  };
}
