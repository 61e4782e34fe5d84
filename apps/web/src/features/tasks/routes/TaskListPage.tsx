import { useQuery } from "@tanstack/react-query";
import { Hourglass } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { toast } from "react-toastify";
import type { Task } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { TaskBuyer, TaskCategory, TaskMetrics } from "../../../components/ui/TaskCard.tsx";
import { TaskFilterBar } from "../../../components/ui/TaskFilterBar.tsx";
import { Countdown } from "../../../components/ui/Countdown.tsx";
import { errorMessage } from "../../../lib/api.ts";
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

/** One task as a worker scans a list for the next job: what it pays, for how long, and until when. */
function TaskLine({ task }: { task: Task }) {
  const reserve = useReserve();
  const navigate = useNavigate();
  const start = () =>
    reserve.mutate(task.id, {
      onSuccess: () => void navigate(paths.dashboard.taskDetails(task.id)),
      onError: (failure) => toast.error(errorMessage(failure, "Failed to start the task")),
    });
  return (
    <li className="flex flex-wrap items-center gap-3 p-3 sm:flex-nowrap">
      <img
        src={task.task_image_url}
        alt=""
        className="size-14 shrink-0 rounded-box object-cover"
        loading="lazy"
      />
      <div className="min-w-0 flex-1 basis-48">
        <TaskCategory task={task} />
        <h2 className="font-semibold break-words">
          <Link to={paths.dashboard.taskDetails(task.id)} className="link link-hover">
            {task.task_title}
          </Link>
        </h2>
        <div className="mt-1 grid justify-items-start gap-1">
          <TaskBuyer task={task} />
        </div>
        <div className="mt-1">
          <TaskMetrics task={task} />
        </div>
      </div>
      <div className="flex w-full gap-2 sm:w-auto">
        <Link
          to={paths.dashboard.taskDetails(task.id)}
          className="btn btn-sm flex-1 sm:flex-none"
          aria-label={`View details of ${task.task_title}`}
        >
          Details
        </Link>
        <button
          type="button"
          className="btn btn-primary btn-sm flex-1 sm:flex-none"
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

export function TaskListPage() {
  const taskFilters = useTaskFilters();
  const { filters, isFiltered } = taskFilters;
  return (
    <Page title="Available tasks">
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
