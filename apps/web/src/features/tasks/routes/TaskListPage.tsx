import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { taskQueries } from "../queries.ts";
import { TaskCard } from "../../../components/ui/TaskCard.tsx";

export function TaskListPage() {
  return (
    <Page title="Available tasks">
      <PagedList
        keysetPages={taskQueries.workerTasks}
        errorMessage="Failed to fetch tasks"
        empty={{
          title: "No tasks are open for you right now.",
          children: "New tasks appear here as soon as buyers post them.",
        }}
      >
        {(items) => (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {items.map((task, index) => (
              <TaskCard
                key={task.id}
                task={task}
                firstRow={index < 3}
                action={
                  <Link
                    to={paths.dashboard.taskDetails(task.id)}
                    className="btn btn-primary btn-sm"
                    aria-label={`View details of ${task.task_title}`}
                  >
                    View details
                  </Link>
                }
              />
            ))}
          </div>
        )}
      </PagedList>
    </Page>
  );
}
