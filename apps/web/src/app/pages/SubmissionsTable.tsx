import { DataTable } from "../../components/ui/DataTable.tsx";
import type { Submission } from "@taskmint/shared";
import { StatusBadge } from "../../components/ui/StatusBadge.tsx";
import { coinCount, formatDate } from "../../lib/format.ts";
import { When } from "../../components/ui/When.tsx";
import { WorkerAppeal } from "../../features/trust/components/AppealViews.tsx";

/** A worker's submissions; pending ones show when they auto-approve, rejected ones why. */
export function SubmissionsTable({ submissions }: { submissions: Submission[] }) {
  return (
    <DataTable numeric={["Pays"]} headers={["Task", "Status", "Pays", "Submitted", "Buyer"]}>
      {submissions.map((submission) => (
        <tr key={submission.id}>
          <td className="font-medium">{submission.task_title}</td>
          {/* Phones: the badge on the status line, why and what next at full width under it. */}
          <td className="max-sm:flex-wrap">
            <StatusBadge status={submission.status} />
            <div className="max-sm:basis-full max-sm:text-left">
              {submission.reason && (
                <p className="mt-1 max-w-xs text-xs break-words text-error max-sm:max-w-none max-sm:text-sm">
                  Reason: {submission.reason}
                </p>
              )}
              <WorkerAppeal submission={submission} />
              {submission.auto_approve_at && (
                <p className="mt-1 text-xs text-base-content/70">
                  Auto-approves {formatDate(submission.auto_approve_at)}
                </p>
              )}
            </div>
          </td>
          <td className="whitespace-nowrap">{coinCount(submission.payable_amount)}</td>
          <td>
            <When iso={submission.current_date} />
          </td>
          <td>{submission.buyer_name}</td>
        </tr>
      ))}
    </DataTable>
  );
}
