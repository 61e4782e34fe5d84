import { DataTable } from "../../../components/ui/DataTable.tsx";
import { useState } from "react";
import type { AuditAction } from "@taskmint/shared";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { adminQueries } from "../queries.ts";
import { When } from "../../../components/ui/When.tsx";

const ACTIONS: Record<string, string> = {
  change_role: "Role change",
  delete_user: "User deleted",
  delete_task: "Task deleted",
  approve_withdrawal: "Withdrawal approved",
  reject_withdrawal: "Withdrawal rejected",
  decide_appeal: "Appeal decided",
};

const describe = (values: Record<string, unknown> | null) =>
  values
    ? Object.entries(values)
        .map(([key, value]) => `${key}: ${String(value)}`)
        .join(", ")
    : "";

/** Who did what, when, with the values before and after. */
export function AuditTrail() {
  const [action, setAction] = useState<AuditAction | "">("");
  return (
    <div>
      <select
        className="select select-sm mb-3 w-auto"
        aria-label="Filter by action"
        value={action}
        onChange={(event) => {
          setAction(event.target.value as AuditAction | "");
        }}
      >
        <option value="">All actions</option>
        {Object.entries(ACTIONS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <PagedList
        key={action}
        pages={(page) => adminQueries.audit(page, action)}
        errorMessage="Failed to load the audit trail"
        empty="No admin actions yet."
      >
        {(items) => (
          <DataTable headers={["When", "Who", "What", "Before", "After"]} compact>
            {items.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <When iso={entry.created_at} />
                </td>
                <td>{entry.actor_name}</td>
                <td>
                  {ACTIONS[entry.action] ?? entry.action}
                  <p className="font-mono text-xs text-base-content/70">
                    {entry.target_type} {entry.target_id.slice(0, 8)}
                  </p>
                </td>
                <td className="max-w-xs text-xs">{describe(entry.before)}</td>
                <td className="max-w-xs text-xs">{describe(entry.after)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
    </div>
  );
}
