import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { useCursorPages } from "../../../lib/cursorPages.ts";
import { taskQueries } from "../queries.ts";
import { TaskCard } from "../../../components/ui/TaskCard.tsx";

export function TaskListPage() {
  const paging = useCursorPages();
  const tasks = useQuery(taskQueries.workerTasks(paging.query));
  return (
    <div>
      <PageHeader title="Available Tasks" />
      <PagedList
        query={tasks}
        errorMessage="Failed to fetch tasks"
        empty={{
          title: "No tasks are open for you right now.",
          children: "Check back soon: buyers post new tasks all the time.",
        }}
        onPage={(page) => paging.go(page, tasks.data)}
      >
        {(items) => (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {items.map((task) => (
              <TaskCard
                key={task.id}
                task={task}
                action={
                  <Link
                    to={paths.dashboard.taskDetails(task.id)}
                    className="btn btn-primary btn-sm"
                    aria-label={`View details of ${task.task_title}`}
                  >
                    View Details
                  </Link>
                }
              />
            ))}
          </div>
        )}
      </PagedList>
    </div>
  );
}
