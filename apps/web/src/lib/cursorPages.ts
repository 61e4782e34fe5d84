import { useState } from "react";
import type { LargePage } from "@taskmint/shared";

/**
 * Page numbers over a keyset-paged list (api: `cursor` and `next_cursor`): remembers the cursor
 * that starts each page visited, so Next and Previous cost the server the same on page 1 or 500.
 */
/** A page of a keyset-paged list: its number and the cursor that starts it (none for page 1). */
export interface KeysetPage {
  page: number;
  cursor?: string;
}

export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  const page = cursors.length + 1;
  return {
    page,
    /** The page shown, as the list's query takes it. */
    keysetPage: { page, cursor: cursors.at(-1) } satisfies KeysetPage,
    /** Moves to `target` from the page shown: forward one page along its next_cursor, or back. */
    go(target: number, shown: LargePage<unknown> | undefined) {
      if (target === page + 1 && shown?.next_cursor) setCursors([...cursors, shown.next_cursor]);
      else if (target < page) setCursors(cursors.slice(0, Math.max(0, target - 1)));
    },
  };
}
