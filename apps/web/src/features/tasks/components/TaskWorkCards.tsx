// The worker's side of a task's page: where they stand (submitted, refused, closed) and their
// reservation; the form that sends the work is in SubmitWorkForm.tsx.
import { useQuery } from "@tanstack/react-query";
import { CircleCheck, CircleX, Clock, Hourglass } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { toast } from "react-toastify";
import { isoDate, type OwnSubmission, type Reservation, type TaskDetails } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { Countdown } from "../../../components/ui/Countdown.tsx";
import { coinCount, formatDate, minutesText } from "../../../lib/format.ts";
import { useCancelReservation, useReserve } from "../api.ts";
import { taskQueries } from "../queries.ts";

/** A card beside the task that says where the worker stands, in place of the form. */
export function StatusCard({
  icon,
  title,
  tone,
  children,
}: {
  icon: ReactNode;
  title: string;
  tone: string;
  children: ReactNode;
}) {
  return (
    <section className="card h-fit bg-base-100 shadow-sm" role="status" aria-labelledby="task-status-title">
      <div className="card-body gap-3">
        {/* The tone colours the icon only: warning yellow text would fail contrast. */}
        <h2 id="task-status-title" className="card-title">
          <span className={tone}>{icon}</span>
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

const mySubmissionsLink = (
  <Link to={paths.dashboard.mySubmissions} className="btn btn-sm self-start">
    See my submissions
  </Link>
);
export const taskListLink = (
  <Link to={paths.dashboard.taskList} className="btn btn-primary btn-sm self-start">
    Find another task
  </Link>
);

/** The worker's own submission to this task: pending, approved or rejected. */
export function Submitted({ submission, pays }: { submission: OwnSubmission; pays: number }) {
  const submitted = (
    <p className="text-sm">You submitted your work on {formatDate(submission.current_date)}.</p>
  );
  if (submission.status === "approved")
    return (
      <StatusCard
        icon={<CircleCheck aria-hidden="true" />}
        title="Submitted and approved"
        tone="text-success"
      >
        {submitted}
        <p>You earned {coinCount(pays)} for this task.</p>
        {mySubmissionsLink}
      </StatusCard>
    );
  if (submission.status === "rejected")
    return (
      <StatusCard icon={<CircleX aria-hidden="true" />} title="Submitted and rejected" tone="text-error">
        {submitted}
        {submission.reason && (
          <p className="whitespace-pre-wrap break-words rounded-box bg-base-200 p-3 text-sm">
            Reason: {submission.reason}
          </p>
        )}
        <p className="text-sm text-base-content/70">Each task takes one submission per worker.</p>
        {taskListLink}
      </StatusCard>
    );
  return (
    <StatusCard icon={<Clock aria-hidden="true" />} title="Submitted, pending review" tone="text-warning">
      {submitted}
      <p>
        The buyer reviews it next.
        {submission.auto_approve_at &&
          ` If they have not by ${formatDate(submission.auto_approve_at)}, it is approved and paid automatically.`}
      </p>
      {mySubmissionsLink}
    </StatusCard>
  );
}

/** The server's reason when the worker may not take this task (rule R21/R23), else null. */
export const notQualified = (failure: unknown): string | null =>
  failure instanceof ApiError && failure.code === "NOT_QUALIFIED" ? failure.message : null;

/** Why a task takes no more submissions, if it does not: closed, past its date, or full. */
export function unavailable(task: TaskDetails): string | null {
  if (task.status === "closed") return "This task is closed and takes no more submissions.";
  if (task.completion_date < isoDate(new Date())) return "This task's completion date has passed.";
  if (task.required_workers <= 0) return "All slots of this task are taken.";
  return null;
}

/**
 * Rule R20: the worker's hold on a slot. Without one, "Start task" holds a slot for the task's
 * time limit; with one, the time left and a way to give the slot back.
 */
export function ReservationCard({
  task,
  reservation,
  onRefused,
}: {
  task: TaskDetails;
  reservation: Reservation | null;
  /** The server said the worker may not take the task (NOT_QUALIFIED), with why. */
  onRefused: (why: string) => void;
}) {
  const reserve = useReserve();
  const cancel = useCancelReservation();
  const detail = useQuery(taskQueries.detail(task.id));
  if (!reservation)
    return (
      <section className="card bg-base-100 shadow-sm" aria-labelledby="reserve-title">
        <div className="card-body gap-3">
          <h2 id="reserve-title" className="card-title">
            <Hourglass className="text-primary" aria-hidden="true" />
            Start this task
          </h2>
          <p className="text-sm">
            Starting holds one slot for you for {minutesText(task.time_limit_minutes)}, so no one can take it
            while you work. Then submit your work here before the time runs out.
          </p>
          <button
            type="button"
            className="btn btn-primary w-full sm:w-auto sm:self-start"
            disabled={reserve.isPending}
            onClick={() =>
              reserve.mutate(task.id, {
                onSuccess: () => toast.success("The slot is yours: submit before the time runs out"),
                onError: (failure) => {
                  const why = notQualified(failure);
                  if (why) onRefused(why);
                  else toast.error(errorMessage(failure, "Failed to start the task"));
                },
              })
            }
          >
            Start task
          </button>
        </div>
      </section>
    );
  return (
    <section className="card bg-base-100 shadow-sm ring-2 ring-primary" aria-labelledby="reserved-title">
      <div className="card-body gap-3">
        <h2 id="reserved-title" className="card-title">
          <Hourglass className="text-primary" aria-hidden="true" />
          Your slot is held
        </h2>
        <p className="text-2xl">
          <Countdown until={reservation.expires_at} onEnd={() => void detail.refetch()} /> left
        </p>
        <p className="text-sm text-base-content/70">
          Submit before the time runs out; after that the slot goes back to the task.
        </p>
        <button
          type="button"
          className="btn btn-ghost btn-sm self-start"
          disabled={cancel.isPending}
          onClick={() =>
            cancel.mutate(reservation.id, {
              onSuccess: () => toast.info("You gave the slot back"),
              onError: (failure) => toast.error(errorMessage(failure, "Failed to give the slot back")),
            })
          }
        >
          Give the slot back
        </button>
      </div>
    </section>
  );
}
