import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { ClipboardList, DollarSign, Users } from "lucide-react";
import { useState } from "react";
import { toast } from "react-toastify";
import type { Submission } from "@taskmint/shared";
import { Modal } from "../../../components/ui/Modal.tsx";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { StatCard } from "../../../components/ui/StatCard.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { formatDateTime, formatDollars } from "../../../lib/format.ts";
import { useReview } from "../api.ts";
import { taskQueries } from "../queries.ts";

function ReviewModal({ submission, onClose }: { submission: Submission; onClose: () => void }) {
  const review = useReview();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");

  const approve = () =>
    review.mutate(
      { id: submission.id, decision: "approve" },
      {
        onSuccess: () => {
          toast.success("Submission approved successfully");
          onClose();
        },
        onError: () => toast.error("Failed to approve submission"),
      },
    );
  const reject = () =>
    review.mutate(
      { id: submission.id, decision: "reject", reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success("Submission rejected successfully");
          onClose();
        },
        onError: () => toast.error("Failed to reject submission"),
      },
    );

  return (
    <Modal
      open
      title="Submission details"
      onClose={onClose}
      actions={
        rejecting ? (
          <button
            type="button"
            className="btn btn-error"
            onClick={reject}
            disabled={review.isPending || reason.trim() === ""}
          >
            Confirm rejection
          </button>
        ) : (
          <>
            <button
              type="button"
              className="btn btn-outline btn-error"
              onClick={() => setRejecting(true)}
              disabled={review.isPending}
            >
              Reject
            </button>
            <button type="button" className="btn btn-success" onClick={approve} disabled={review.isPending}>
              {review.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              Approve
            </button>
          </>
        )
      }
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="font-semibold">Task</dt>
        <dd>{submission.task_title}</dd>
        <dt className="font-semibold">Worker</dt>
        <dd>
          {submission.worker_name} ({submission.worker_email})
        </dd>
        <dt className="font-semibold">Pays</dt>
        <dd>{submission.payable_amount} coins</dd>
        <dt className="font-semibold">Submitted</dt>
        <dd>{formatDateTime(submission.current_date)}</dd>
        {submission.auto_approve_at && (
          <>
            <dt className="font-semibold">Auto-approves</dt>
            <dd>{formatDateTime(submission.auto_approve_at)}</dd>
          </>
        )}
      </dl>
      <h3 className="mt-4 font-semibold">Submission details</h3>
      <p className="mt-1 whitespace-pre-wrap break-words rounded-box bg-base-200 p-3 text-sm">
        {submission.submission_details}
      </p>
      {rejecting && (
        <div className="fieldset mt-4">
          <label htmlFor="reject-reason" className="fieldset-legend">
            Reason for rejection (the worker will see it)
          </label>
          <textarea
            id="reject-reason"
            className="textarea w-full"
            rows={3}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            autoFocus
          />
        </div>
      )}
    </Modal>
  );
}

export function BuyerHomePage() {
  const stats = useQuery(taskQueries.buyerStats());
  const [page, setPage] = useState(1);
  const queue = useQuery(taskQueries.reviewQueue(page));
  const [viewing, setViewing] = useState<Submission | null>(null);

  return (
    <div>
      <PageHeader title="Buyer Home" />
      {stats.isError ? (
        <ErrorState message="Failed to load dashboard data" onRetry={() => void stats.refetch()} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-3">
          <StatCard
            label="Total tasks"
            value={stats.data?.totalTasks ?? "…"}
            icon={<ClipboardList aria-hidden="true" />}
          />
          <StatCard
            label="Pending workers"
            value={stats.data?.pendingWorkers ?? "…"}
            icon={<Users aria-hidden="true" />}
          />
          <StatCard
            label="Total payments"
            value={stats.data ? formatDollars(stats.data.totalPayments) : "…"}
            icon={<DollarSign aria-hidden="true" />}
          />
        </div>
      )}
      <h2 className="mb-3 mt-8 text-xl font-bold">Tasks To Review</h2>
      <PagedList
        query={queue}
        errorMessage="Failed to load dashboard data"
        empty={<EmptyState title="Nothing to review right now." />}
        onPage={setPage}
      >
        {(items) => (
          <DataTable headers={["Worker", "Task", "Pays", ""]}>
            {items.map((submission) => (
              <tr key={submission.id}>
                <td>{submission.worker_name}</td>
                <td>{submission.task_title}</td>
                <td>{submission.payable_amount} coins</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    onClick={() => setViewing(submission)}
                  >
                    View Details
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      {viewing && <ReviewModal submission={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}
