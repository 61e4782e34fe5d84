import { FilterSelect, type FilterOption } from "../../components/form/FilterSelect.tsx";
import { useState } from "react";
import { submissionStatuses, type SubmissionStatus } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../components/ui/Page.tsx";
import { PagedList } from "../../components/ui/PagedList.tsx";
import { taskQueries } from "../../features/tasks/queries.ts";
import { SubmissionsTable } from "./SubmissionsTable.tsx";

const STATUS_FILTERS: FilterOption<SubmissionStatus>[] = [
  { value: "", label: "All statuses" },
  ...submissionStatuses.map((value) => ({ value, label: value })),
];

export function MySubmissionsPage() {
  const [status, setStatus] = useState<SubmissionStatus | undefined>();
  return (
    <Page
      title="My submissions"
      actions={
        <FilterSelect
          label="Filter by status"
          value={status ?? ""}
          options={STATUS_FILTERS}
          onChange={(value) => setStatus(value || undefined)}
          className="capitalize"
        />
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
