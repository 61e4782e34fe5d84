import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "react-toastify";
import type { Task } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Modal } from "../../../components/ui/Modal.tsx";
import { MoreButton } from "../../../components/ui/MoreButton.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { TASK_CARD_GRID, TaskCard, TaskCardSkeletons } from "../../../components/ui/TaskCard.tsx";
import { TaskFacts } from "../../../components/ui/TaskFacts.tsx";
import { TaskPicture } from "../../../components/ui/TaskPicture.tsx";
import { resultCount, TaskFilterBar } from "../../../components/ui/TaskFilterBar.tsx";
import { useTaskFilters } from "../../../lib/taskFilters.ts";
import { useMe } from "../../../lib/auth.ts";
import { FIRST_PAGE_FILTERS, takeEmbeddedFirstPage } from "../firstPage.ts";
import { publicQueries } from "../queries.ts";

function TaskDetailModal({ task, onClose }: { task: Task; onClose: () => void }) {
  const { data: user } = useMe();
  const navigate = useNavigate();
  const detailsPath = paths.dashboard.taskDetails(task.id);
  // Rule R16: workers go to the task to start it, visitors sign in first, buyers are told it is for workers.
  const start = () => {
    if (!user) void navigate(paths.login, { state: { from: detailsPath } });
    else if (user.role === "worker") void navigate(detailsPath);
    else toast.info("Only workers can start tasks. Sign in with a worker account to start one.");
  };
  return (
    <Modal
      open
      title={task.task_title}
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-primary" onClick={start}>
          Start task
        </button>
      }
    >
      <TaskPicture
        task={task}
        sizes="(min-width: 640px) 32rem, 100vw"
        loading="eager"
        className="mb-3 aspect-video w-full rounded-box object-cover"
      />
      <TaskFacts task={task}>
        {task.user_email && (
          <>
            <dt className="font-semibold">Contact</dt>
            <dd className="break-all">{task.user_email}</dd>
          </>
        )}
      </TaskFacts>
      <h3 className="mt-3 font-semibold">Task details</h3>
      <p className="whitespace-pre-wrap break-words text-sm">{task.task_detail}</p>
      <h3 className="mt-3 font-semibold">What to submit</h3>
      <p className="whitespace-pre-wrap break-words text-sm">{task.submission_info}</p>
    </Modal>
  );
}

export function AllTasksPage() {
  const taskFilters = useTaskFilters();
  const firstPage = !taskFilters.isFiltered && taskFilters.filters.sort === FIRST_PAGE_FILTERS.sort;
  const tasks = useInfiniteQuery({
    ...publicQueries.tasks(taskFilters.filters),
    placeholderData: keepPreviousData,
    // The server rendered the first page into the HTML: the app starts with it, no second request.
    initialData: firstPage ? takeEmbeddedFirstPage : undefined,
  });
  const [viewing, setViewing] = useState<Task | null>(null);
  const items = tasks.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section className="mx-auto max-w-7xl px-4 py-8">
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-3xl font-bold">All tasks</h1>
        <p className="text-base-content/70" aria-live="polite">
          {tasks.data?.pages[0] &&
            resultCount(tasks.data.pages[0].total_estimate, tasks.data.pages[0].total_capped)}
        </p>
      </div>
      <TaskFilterBar filters={taskFilters} />
      {tasks.isPending ? (
        <TaskCardSkeletons />
      ) : tasks.isError ? (
        <ErrorState message="Failed to fetch tasks" onRetry={() => void tasks.refetch()} />
      ) : items.length === 0 ? (
        taskFilters.isFiltered ? (
          <EmptyState title="No open tasks match.">
            Try other words, another category or a lower reward.
          </EmptyState>
        ) : (
          <EmptyState title="No open tasks right now.">
            New tasks appear here as soon as buyers post them.
          </EmptyState>
        )
      ) : (
        <>
          <div className={TASK_CARD_GRID}>
            {items.map((task, index) => (
              <TaskCard
                key={task.id}
                task={task}
                picture={index === 0 ? "first" : index < 4 ? "eager" : "lazy"}
                action={
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    onClick={() => setViewing(task)}
                    // Rendered on the server it does nothing until the app has taken over: say so.
                    disabled={typeof document === "undefined"}
                    aria-label={`Details of ${task.task_title}`}
                  >
                    Details
                  </button>
                }
              />
            ))}
          </div>
          <MoreButton pages={tasks} label="Load more" />
        </>
      )}
      <div className="mt-8">
        <Link to={paths.home} className="link">
          ← Back to home
        </Link>
      </div>
      {viewing && <TaskDetailModal task={viewing} onClose={() => setViewing(null)} />}
    </section>
  );
}
