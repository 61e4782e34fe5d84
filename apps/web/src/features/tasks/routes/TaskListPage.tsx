import { useState } from "react";
import { Link } from "react-router";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { Pagination } from "../../../components/ui/Pagination.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { useWorkerTasks } from "../api.ts";
import { TaskCard } from "../../../components/ui/TaskCard.tsx";

export function TaskListPage() {
  const [page, setPage] = useState(1);
  const tasks = useWorkerTasks(page);
  return (
    <div>
      <PageHeader title="Available Tasks" />
      {tasks.isPending ? (
        <Spinner />
      ) : tasks.isError ? (
        <ErrorState message="Failed to fetch tasks" onRetry={() => void tasks.refetch()} />
      ) : tasks.data.items.length === 0 ? (
        <EmptyState title="No tasks are open for you right now.">Check back soon: buyers post new tasks all the time.</EmptyState>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {tasks.data.items.map((task) => (
              <TaskCard
                key={task.id}
                task={task}
                action={
                  <Link to={`/dashboard/task-details/${task.id}`} className="btn btn-primary btn-sm" aria-label={`View details of ${task.task_title}`}>
                    View Details
                  </Link>
                }
              />
            ))}
          </div>
          <Pagination page={page} limit={tasks.data.limit} total={tasks.data.total} onPage={setPage} />
        </>
      )}
    </div>
  );
}
