import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../../components/ui/DataTable.tsx";
import { ClipboardList, DollarSign, Plus, Users } from "lucide-react";
import { Link } from "react-router";
import { useState } from "react";
import { toast } from "react-toastify";
import { rejectionSchema, type BuyerStats, type Rejection, type Submission } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, SubmitButton, useZodForm } from "../../components/form/Form.tsx";
import { FormModal } from "../../components/form/FormModal.tsx";
import { DecisionButtons } from "../../components/ui/DecisionButtons.tsx";
import { Page } from "../../components/ui/Page.tsx";
import { PagedList } from "../../components/ui/PagedList.tsx";
import { Screenshots } from "../../components/ui/Screenshots.tsx";
import { StatCards, type Stat } from "../../components/ui/StatCards.tsx";
import { coinCount, formatDateTime, formatDollars } from "../../lib/format.ts";
import { useReview } from "../../features/tasks/api.ts";
import { taskQueries } from "../../features/tasks/queries.ts";
import { When } from "../../components/ui/When.tsx";
import { AppealsToAnswer } from "../../features/trust/components/AppealViews.tsx";
import { BlockModal, BonusModal } from "../../features/trust/components/BuyerActions.tsx";
import { WorkerReputationLine } from "../../features/trust/components/Reputation.tsx";
import { useMe } from "../../lib/auth.ts";
import { BuyerStartList } from "./BuyerStartList.tsx";

const STATS: Stat<BuyerStats>[] = [
  { label: "Total tasks", icon: ClipboardList, value: (stats) => stats.totalTasks },
  { label: "Open slots", icon: Users, value: (stats) => stats.pendingWorkers },
  { label: "Total payments", icon: DollarSign, value: (stats) => formatDollars(stats.totalPayments) },
];

type ReviewAction = "bonus" | "block";

function ReviewModal({
  submission,
  onClose,
  onAction,
}: {
  submission: Submission;
  onClose: () => void;
  /** Opens the bonus or block dialog for this submission's worker (closing this one). */
  onAction: (action: ReviewAction) => void;
}) {
  const review = useReview();
  const [rejecting, setRejecting] = useState(false);
  const form = useZodForm(rejectionSchema, { reason: "" });

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
  const reject = async ({ reason }: Rejection) => {
    await review.mutateAsync({ id: submission.id, decision: "reject", reason });
    toast.success("Submission rejected successfully");
    onClose();
  };

  return (
    <FormModal
      form={form}
      onSubmit={reject}
      onError={() => toast.error("Failed to reject submission")}
      title="Submission details"
      onClose={onClose}
      actions={
        rejecting ? (
          <SubmitButton className="btn btn-error">Confirm rejection</SubmitButton>
        ) : (
          <DecisionButtons busy={review.isPending} onReject={() => setRejecting(true)} onApprove={approve} />
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
        <dt className="font-semibold">Record</dt>
        <dd>
          <WorkerReputationLine reputation={submission.worker_reputation} />
        </dd>
        <dt className="font-semibold">Pays</dt>
        <dd>{coinCount(submission.payable_amount)}</dd>
        <dt className="font-semibold">Submitted</dt>
        <dd>
          <When iso={submission.current_date} />
        </dd>
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
      {submission.attachments.length > 0 && (
        <>
          <h3 className="mt-4 mb-2 font-semibold">Screenshots</h3>
          <Screenshots urls={submission.attachments} />
        </>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="button" className="btn btn-sm btn-outline" onClick={() => onAction("bonus")}>
          Send bonus
        </button>
        <button type="button" className="btn btn-sm btn-ghost text-error" onClick={() => onAction("block")}>
          Block worker
        </button>
      </div>
      {rejecting && (
        <Field
          as="textarea"
          name="reason"
          id="reject-reason"
          label="Reason for rejection (the worker will see it)"
          rows={3}
          autoFocus
        />
      )}
    </FormModal>
  );
}

export function BuyerHomePage() {
  const stats = useQuery(taskQueries.buyerStats());
  const [viewing, setViewing] = useState<Submission | null>(null);
  const [acting, setActing] = useState<{ action: ReviewAction; submission: Submission } | null>(null);

  const { data: user } = useMe();
  // A buyer with no task yet sees the start list, not a row of zeros.
  const isNew = stats.data?.totalTasks === 0;

  return (
    <Page
      title="Buyer home"
      actions={
        stats.data &&
        !isNew && (
          <Link to={paths.dashboard.addTasks} className="btn btn-primary min-h-11">
            <Plus className="size-4" aria-hidden="true" />
            Post a task
          </Link>
        )
      }
    >
      {user && stats.data && <BuyerStartList user={user} stats={stats.data} />}
      {!isNew && <StatCards query={stats} errorMessage="Failed to load dashboard data" stats={STATS} />}
      <h2 className="mb-3 mt-8 text-xl font-bold">Tasks to review</h2>
      <PagedList
        pages={taskQueries.reviewQueue}
        errorMessage="Failed to load dashboard data"
        empty={{
          title: "Nothing to review right now.",
          children: "New submissions to your tasks will appear here.",
        }}
      >
        {(items) => (
          <DataTable numeric={["Pays"]} headers={["Worker", "Task", "Pays", ""]}>
            {items.map((submission) => (
              <tr key={submission.id}>
                <td>{submission.worker_name}</td>
                <td>{submission.task_title}</td>
                <td>{coinCount(submission.payable_amount)}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    onClick={() => setViewing(submission)}
                  >
                    View details
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      {viewing && (
        <ReviewModal
          submission={viewing}
          onClose={() => setViewing(null)}
          onAction={(action) => {
            setActing({ action, submission: viewing });
            setViewing(null);
          }}
        />
      )}
      {acting?.action === "bonus" && (
        <BonusModal submission={acting.submission} onClose={() => setActing(null)} />
      )}
      {acting?.action === "block" && (
        <BlockModal submission={acting.submission} onClose={() => setActing(null)} />
      )}
      <h2 className="mb-3 mt-8 text-xl font-bold">Appeals to answer</h2>
      <AppealsToAnswer />
    </Page>
  );
}
