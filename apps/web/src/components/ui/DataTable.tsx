import { useLayoutEffect, useRef, type ReactNode } from "react";

/**
 * A table card; below 640 px each row is a card of its own (the `table-cards` styles in
 * index.css), each cell labelled with its column's header. An empty header names the actions
 * column, for screen readers only.
 */
export function DataTable({
  headers,
  compact = false,
  children,
}: {
  headers: string[];
  compact?: boolean;
  children: ReactNode;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  // The labels go on after each render, so the rows stay plain <td>s wherever they are written.
  useLayoutEffect(() => {
    for (const row of body.current?.rows ?? []) {
      for (const [index, cell] of Array.from(row.cells).entries()) {
        cell.dataset.label = headers[index] ?? "";
      }
    }
  });
  return (
    <div className="table-cards overflow-x-auto rounded-box bg-base-100 shadow-sm">
      <table className={compact ? "table table-sm" : "table"}>
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={header || index}>{header || <span className="sr-only">Actions</span>}</th>
            ))}
          </tr>
        </thead>
        <tbody ref={body}>{children}</tbody>
      </table>
    </div>
  );
}
