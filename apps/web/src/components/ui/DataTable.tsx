import { useLayoutEffect, useRef, type ReactNode } from "react";

/**
 * A table card; below 640 px each row is a card of its own (the `table-cards` styles in
 * index.css), each cell labelled with its column's header. An empty header names the actions
 * column, for screen readers only.
 */
export function DataTable({
  headers,
  numeric = [],
  compact = false,
  children,
}: {
  headers: string[];
  /** The headers of columns of numbers: right-aligned, in figures of one width. */
  numeric?: string[];
  compact?: boolean;
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
    <div className="table-cards overflow-x-auto rounded-box bg-base-100 shadow-sm">
      <table className={compact ? "table table-sm" : "table"}>
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
