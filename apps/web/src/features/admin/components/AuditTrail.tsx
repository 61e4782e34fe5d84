import { FilterSelect, type FilterOption } from "../../../components/form/FilterSelect.tsx";
import { useState } from "react";
import type { AuditAction, AuditRecord } from "@taskmint/shared";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { When } from "../../../components/ui/When.tsx";
import { auditSentence } from "../auditSentence.ts";
import { adminQueries } from "../queries.ts";

const ACTIONS: Record<AuditAction, string> = {
  change_role: "Role changes",
  delete_user: "Deleted users",
  delete_task: "Deleted tasks",
  approve_withdrawal: "Paid withdrawals",
  reject_withdrawal: "Rejected withdrawals",
  decide_appeal: "Appeal decisions",
};

/** The record as stored, for an admin who needs the ids and values behind the sentence. */
function RawRecord({ entry }: { entry: AuditRecord }) {
  const raw = {
    action: entry.action,
    actor: entry.actor_email,
    target: `${entry.target_type} ${entry.target_id}`,
    at: entry.created_at,
    before: entry.before,
    after: entry.after,
  };
  return (
    <details className="mt-1 text-xs" data-testid="audit-raw">
      <summary className="inline-flex min-h-11 cursor-pointer items-center text-base-content/70 hover:text-base-content">
        Raw record
      </summary>
      <pre className="overflow-x-auto rounded-box bg-base-200 p-3 whitespace-pre-wrap break-words">
        {JSON.stringify(raw, null, 2)}
      </pre>
    </details>
  );
}

const ACTION_FILTERS: FilterOption<AuditAction>[] = [
  { value: "", label: "All actions" },
  ...(Object.keys(ACTIONS) as AuditAction[]).map((value) => ({ value, label: ACTIONS[value] })),
];

/** Who did what, when, in sentences; the stored record behind each one's toggle. */
export function AuditTrail() {
  const [action, setAction] = useState<AuditAction | "">("");
  return (
    <div>
      <FilterSelect
        label="Show"
        value={action}
        options={ACTION_FILTERS}
        onChange={setAction}
        className="mb-3 min-h-11 sm:min-h-8"
      />
      <PagedList
        key={action}
        pages={(page) => adminQueries.audit(page, action)}
        errorMessage="Failed to load the audit trail"
        empty={action ? "No admin actions of this kind yet." : "No admin actions yet."}
      >
        {(items) => (
          <ul
            className="divide-y divide-base-300 rounded-box bg-base-100 shadow-sm"
            data-testid="audit-trail"
          >
            {items.map((entry) => (
              <li key={entry.id} className="px-4 pt-3 pb-1" data-testid="audit-entry">
                <p className="text-sm break-words">{auditSentence(entry)}</p>
                <p className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-base-content/70">
                  <When iso={entry.created_at} />
                  {entry.subject.user_deleted && entry.action !== "delete_user" && (
                    <span>· {entry.subject.user_name}’s account has since been deleted</span>
                  )}
                </p>
                <RawRecord entry={entry} />
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </div>
  );
}
