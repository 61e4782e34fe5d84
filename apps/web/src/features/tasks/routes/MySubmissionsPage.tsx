import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { submissionStatuses, type SubmissionStatus } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { taskQueries } from "../queries.ts";
import { SubmissionsTable } from "../components/SubmissionsTable.tsx";

export function MySubmissionsPage() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<SubmissionStatus | undefined>();
  const submissions = useQuery(taskQueries.workerSubmissions(page, status));
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
      <PagedList
        query={submissions}
        errorMessage="Failed to load your submissions"
        empty={{ title: "No submissions yet.", link: { to: paths.dashboard.taskList, label: "Find a task" } }}
        onPage={setPage}
      >
        {(items) => <SubmissionsTable submissions={items} />}
      </PagedList>
    </div>
  );
}
