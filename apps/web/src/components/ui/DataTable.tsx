import type { ReactNode } from "react";

/** A scrollable table card; an empty header names the actions column for screen readers only. */
export function DataTable({
  headers,
  compact = false,
  children,
}: {
  headers: string[];
  compact?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-box bg-base-100 shadow-sm">
      <table className={compact ? "table table-sm" : "table"}>
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={header || index}>{header || <span className="sr-only">Actions</span>}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
