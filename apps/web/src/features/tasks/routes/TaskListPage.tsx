import { useQuery } from "@tanstack/react-query";
import { Hourglass } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "react-toastify";
import type { Task, TaskFilters } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { TaskBuyer, taskBuyerShort, TaskCategory, TaskMetrics } from "../../../components/ui/TaskCard.tsx";
import { TaskFilterBar } from "../../../components/ui/TaskFilterBar.tsx";
import { TaskPicture } from "../../../components/ui/TaskPicture.tsx";
import { Countdown } from "../../../components/ui/Countdown.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { coinCount, formatDate, minutesText, plural } from "../../../lib/format.ts";
import { useTaskFilters } from "../../../lib/taskFilters.ts";
import { useReserve } from "../api.ts";
import { taskQueries } from "../queries.ts";

/** Rule R20: the tasks the worker started, with the time left on each. */
function ReservedTasks() {
  const reservations = useQuery(taskQueries.reservations());
  if (!reservations.data || reservations.data.length === 0) return null;
  return (
    <section aria-labelledby="reserved-heading" className="mb-6">
      <h2 id="reserved-heading" className="mb-2 flex items-center gap-2 text-lg font-semibold">
        <Hourglass className="size-5 text-primary" aria-hidden="true" />
        Your started tasks
      </h2>
      <ul className="divide-y divide-base-300 rounded-box bg-base-100 shadow-sm ring-2 ring-primary">
        {reservations.data.map((reservation) => (
          <li key={reservation.id} className="flex flex-wrap items-center gap-3 p-3">
            <span className="min-w-0 flex-1 basis-48 font-semibold break-words">
              {reservation.task_title}
            </span>
            <span className="text-sm">
              <Countdown until={reservation.expires_at} onEnd={() => void reservations.refetch()} /> left
            </span>
            <Link
              to={paths.dashboard.taskDetails(reservation.task_id)}
              className="btn btn-primary btn-sm w-full sm:w-auto"
              aria-label={`Continue ${reservation.task_title}`}
            >
              Continue
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * One task as a worker scans a list for the next job: what it pays, for how long, and until when.
 * On phones a compact row (title on two lines at most, the facts on one) the whole of which opens
 * the task, with Start beside it; wider, the picture, every fact and both actions.
 */
function TaskLine({ task }: { task: Task }) {
  const reserve = useReserve();
  const navigate = useNavigate();
  // The promise, not mutate's callbacks: those are dropped when this row unmounts, and the
  // list's refresh after the reservation may move the task and unmount the row first.
  const start = () =>
    void reserve.mutateAsync(task.id).then(
      () => void navigate(paths.dashboard.taskDetails(task.id)),
      (failure: unknown) => void toast.error(errorMessage(failure, "Failed to start the task")),
    );
  return (
    <li className="relative flex items-center gap-3 p-3 hover:bg-base-200/60 sm:hover:bg-transparent">
      <TaskPicture
        task={task}
        sizes="56px"
        className="hidden size-14 shrink-0 rounded-box object-cover sm:block"
      />
      <div className="min-w-0 flex-1">
        <div className="flex min-w-0 items-baseline gap-1">
          <TaskCategory task={task} />
          <span className="truncate text-xs text-base-content/70 sm:hidden">
            · Due {formatDate(task.completion_date)}
          </span>
        </div>
        <h2 className="line-clamp-2 font-semibold break-words sm:line-clamp-none">
          {/* On phones the link covers the row, a tap target as big as the task. */}
          <Link
            to={paths.dashboard.taskDetails(task.id)}
            className="link link-hover after:absolute after:inset-0 sm:after:hidden"
          >
            {task.task_title}
          </Link>
        </h2>
        <p className="truncate text-sm sm:hidden">
          <span className="font-semibold">{coinCount(task.payable_amount)}</span> ·{" "}
          {minutesText(task.estimated_minutes)} · {plural(task.required_workers, "slot")}
        </p>
        <p className="truncate text-xs text-base-content/70 sm:hidden">{taskBuyerShort(task)}</p>
        <div className="mt-1 hidden justify-items-start gap-1 sm:grid">
          <TaskBuyer task={task} />
        </div>
        <div className="mt-1 hidden sm:block">
          <TaskMetrics task={task} />
        </div>
      </div>
      <div className="relative flex shrink-0 gap-2">
        <Link
          to={paths.dashboard.taskDetails(task.id)}
          className="btn btn-sm hidden sm:inline-flex"
          aria-label={`View details of ${task.task_title}`}
        >
          Details
        </Link>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          aria-label={`Start ${task.task_title}`}
          disabled={reserve.isPending}
          onClick={start}
        >
          Start
        </button>
      </div>
    </li>
  );
}

/** `searchActions`: what the page beside the title offers for the search shown (saving it, issue 36). */
export function TaskListPage({ searchActions }: { searchActions?: (filters: TaskFilters) => ReactNode }) {
  const taskFilters = useTaskFilters();
  const { filters, isFiltered } = taskFilters;
  return (
    <Page title="Available tasks" actions={searchActions?.(filters)}>
      <ReservedTasks />
      <TaskFilterBar filters={taskFilters} />
      <PagedList
        key={JSON.stringify(filters)}
        keysetPages={taskQueries.workerTasks(filters)}
        errorMessage="Failed to fetch tasks"
        empty={
          isFiltered
            ? {
                title: "No open tasks match.",
                children: "Try other words, another category or a lower reward.",
              }
            : {
                title: "No tasks are open for you right now.",
                children: "New tasks appear here as soon as buyers post them.",
              }
        }
      >
        {(items) => (
          <ul className="divide-y divide-base-300 rounded-box bg-base-100 shadow-sm ring-1 ring-base-300">
            {items.map((task) => (
              <TaskLine key={task.id} task={task} />
            ))}
          </ul>
        )}
      </PagedList>
    </Page>
  );
}
