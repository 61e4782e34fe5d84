import { useQuery } from "@tanstack/react-query";
import { Lock } from "lucide-react";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { Spinner } from "../../components/ui/Spinner.tsx";
import { ErrorState } from "../../components/ui/States.tsx";
import { ApiError } from "../../lib/api.ts";
import { TaskFacts } from "../../components/ui/TaskFacts.tsx";
import { TaskPicture } from "../../components/ui/TaskPicture.tsx";
import { taskQueries } from "../../features/tasks/queries.ts";
import { HideBuyerButton } from "../../features/trust/components/HideBuyerButton.tsx";
import {
  StatusCard,
  Submitted,
  unavailable,
  ReservationCard,
  taskListLink,
} from "../../features/tasks/components/TaskWorkCards.tsx";
import { SubmitWithoutStarting, SubmitWorkForm } from "../../features/tasks/components/SubmitWorkForm.tsx";

export function TaskDetailsPage() {
  const { id = "" } = useParams();
  const task = useQuery(taskQueries.detail(id));
  // Why the server refused this worker the task (NOT_QUALIFIED on start or submit), for this task.
  const [refused, setRefused] = useState<{ id: string; why: string } | null>(null);
  const refusal = refused?.id === id ? refused.why : null;
  const onRefused = (why: string) => setRefused({ id, why });

  if (task.isPending) return <Spinner />;
  if (task.isError) {
    const missing =
      task.error instanceof ApiError && (task.error.status === 404 || task.error.status === 400);
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold">Task details</h1>
        <ErrorState message={missing ? "Task not found" : "Failed to load task details"} />
        <Link to={paths.dashboard.taskList} className="btn">
          Back to tasks
        </Link>
      </div>
    );
  }
  const data = task.data;
  const held = data.my_reservation ?? null;
  // A held slot stays the worker's though no other is free.
  const closedBecause = held ? null : unavailable(data);

  return (
    <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
      <article className="card bg-base-100 shadow-sm">
        {/* The category's picture: across the top when there is room, a thumbnail on phones. */}
        <figure className="hidden aspect-video bg-base-200 sm:block">
          {/* Lazy: a phone hides it, and so never loads it. */}
          <TaskPicture
            task={data}
            sizes="(min-width: 1024px) 60vw, 100vw"
            className="size-full object-cover"
          />
        </figure>
        <div className="card-body max-sm:p-4">
          <div className="flex items-start gap-3">
            <TaskPicture
              task={data}
              sizes="56px"
              loading="eager"
              className="size-14 shrink-0 rounded-box bg-base-200 object-cover sm:hidden"
            />
            <h1 className="min-w-0 flex-1 text-xl font-bold break-words sm:text-2xl">{data.task_title}</h1>
            <HideBuyerButton task={data} />
          </div>
          <TaskFacts task={data} />
          <h2 className="mt-3 font-semibold">Task details</h2>
          <p className="whitespace-pre-wrap break-words">{data.task_detail}</p>
          <h2 className="mt-3 font-semibold">What to submit</h2>
          <p className="whitespace-pre-wrap break-words">{data.submission_info}</p>
        </div>
      </article>
      {data.my_submission ? (
        <Submitted submission={data.my_submission} pays={data.payable_amount} />
      ) : refusal ? (
        <StatusCard icon={<Lock aria-hidden="true" />} title="You cannot take this task" tone="text-error">
          <p role="alert">{refusal}</p>
          {taskListLink}
        </StatusCard>
      ) : closedBecause ? (
        <StatusCard icon={<Lock aria-hidden="true" />} title="No longer open" tone="">
          <p>{closedBecause}</p>
          {taskListLink}
        </StatusCard>
      ) : (
        // One way: start, then submit within the time limit. Submitting without starting is
        // folded under it, there only while a slot is free (rule R20).
        <div className="grid h-fit gap-4">
          <ReservationCard task={data} reservation={held} onRefused={onRefused} />
          {held ? (
            <SubmitWorkForm task={data} onRefused={onRefused} />
          ) : (
            <SubmitWithoutStarting task={data} onRefused={onRefused} />
          )}
        </div>
      )}
    </div>
  );
}
