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
          <td>
            <StatusBadge status={submission.status} />
            {submission.reason && (
              <p className="mt-1 max-w-xs text-xs text-error">Reason: {submission.reason}</p>
            )}
            <WorkerAppeal submission={submission} />
            {submission.auto_approve_at && (
              <p className="mt-1 text-xs text-base-content/70">
                Auto-approves {formatDate(submission.auto_approve_at)}
              </p>
            )}
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
