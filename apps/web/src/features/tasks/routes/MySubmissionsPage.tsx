import { useState } from "react";
import { Link } from "react-router";
import { submissionStatuses, type SubmissionStatus } from "@taskmint/shared";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { Pagination } from "../../../components/ui/Pagination.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { useWorkerSubmissions } from "../api.ts";
import { SubmissionsTable } from "../components/SubmissionsTable.tsx";

export function MySubmissionsPage() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<SubmissionStatus | undefined>();
  const submissions = useWorkerSubmissions(page, status);
  return (
    <div>
      <PageHeader title="My Submissions">
        <select
          className="select select-sm w-auto"
          aria-label="Filter by status"
          value={status ?? ""}
          onChange={(event) => {
            setStatus((event.target.value || undefined) as SubmissionStatus | undefined);
            setPage(1);
          }}
        >
          <option value="">All statuses</option>
          {submissionStatuses.map((value) => (
            <option key={value} value={value} className="capitalize">
              {value}
            </option>
          ))}
        </select>
      </PageHeader>
      {submissions.isPending ? (
        <Spinner />
      ) : submissions.isError ? (
        <ErrorState message="Failed to load your submissions" onRetry={() => void submissions.refetch()} />
      ) : submissions.data.items.length === 0 ? (
        <EmptyState title="No submissions yet.">
          <Link to="/dashboard/task-list" className="link link-primary">
            Find a task
          </Link>
        </EmptyState>
      ) : (
        <>
          <SubmissionsTable submissions={submissions.data.items} />
          <Pagination page={page} limit={submissions.data.limit} total={submissions.data.total} onPage={setPage} />
        </>
      )}
    </div>
  );
}
