import { useState } from "react";
import { submissionStatuses, type SubmissionStatus } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../components/ui/Page.tsx";
import { PagedList } from "../../components/ui/PagedList.tsx";
import { taskQueries } from "../../features/tasks/queries.ts";
import { SubmissionsTable } from "./SubmissionsTable.tsx";

export function MySubmissionsPage() {
  const [status, setStatus] = useState<SubmissionStatus | undefined>();
  return (
    <Page
      title="My submissions"
      actions={
        <select
          className="select select-sm w-auto"
          aria-label="Filter by status"
          value={status ?? ""}
          onChange={(event) => setStatus((event.target.value || undefined) as SubmissionStatus | undefined)}
        >
          <option value="">All statuses</option>
          {submissionStatuses.map((value) => (
            <option key={value} value={value} className="capitalize">
              {value}
            </option>
          ))}
        </select>
      }
    >
      <PagedList
        key={status}
        pages={(page) => taskQueries.workerSubmissions(page, status)}
        errorMessage="Failed to load your submissions"
        empty={{
          title: status ? `No ${status} submissions yet.` : "You have not submitted work yet.",
          link: { to: paths.dashboard.taskList, label: "Find a task" },
        }}
      >
        {(items) => <SubmissionsTable submissions={items} />}
      </PagedList>
    </Page>
  );
}
