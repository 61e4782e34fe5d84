import { useLayoutEffect, useRef, type ReactNode } from "react";

/**
 * Phones, `layout="rows"`: the table and its body become blocks and the headers are read by
 * screen readers only; each row lays out its own cells (say, a grid of two lines), in one list.
 */
const PHONE_ROWS =
  "max-sm:block max-sm:[&>tbody]:block max-sm:[&>thead]:absolute max-sm:[&>thead]:size-px max-sm:[&>thead]:overflow-hidden max-sm:[&>thead]:[clip-path:inset(50%)]";

/**
 * A table card; below 640 px each row is a card of its own (the `table-cards` styles in
 * index.css), each cell labelled with its column's header. An empty header names the actions
 * column, for screen readers only. With `layout="rows"` a phone shows one short row per entry
 * instead, laid out by the rows' own classes (a statement, a feed).
 */
export function DataTable({
  headers,
  numeric = [],
  compact = false,
  layout = "cards",
  children,
}: {
  headers: string[];
  /** The headers of columns of numbers: right-aligned, in figures of one width. */
  numeric?: string[];
  compact?: boolean;
  layout?: "cards" | "rows";
  children: ReactNode;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  // Labels and number marks go on after each render, so rows stay plain <td>s wherever written.
  useLayoutEffect(() => {
    for (const row of body.current?.rows ?? []) {
      for (const [index, cell] of Array.from(row.cells).entries()) {
        const header = headers[index] ?? "";
        cell.dataset.label = header;
        cell.toggleAttribute("data-numeric", numeric.includes(header));
      }
    }
  });
  return (
    <div
      className={`${layout === "cards" ? "table-cards" : ""} overflow-x-auto rounded-box bg-base-100 shadow-sm`}
    >
      <table className={`${compact ? "table table-sm" : "table"} ${layout === "rows" ? PHONE_ROWS : ""}`}>
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={header || index} data-numeric={numeric.includes(header) || undefined}>
                {header || <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={body}>{children}</tbody>
      </table>
    </div>
  );
}
