import { useQuery } from "@tanstack/react-query";
import { CircleCheck, CircleX, Clock, EyeOff, Hourglass, Lock } from "lucide-react";
import { useMemo, useState, type ReactNode } from "react";
import type { z } from "zod";
import { useWatch } from "react-hook-form";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "react-toastify";
import {
  isoDate,
  SUBMISSION_DETAILS_MAX,
  MAX_PROOF_IMAGES,
  submitWorkSchema,
  type OwnSubmission,
  type Reservation,
  type TaskDetails,
} from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, SubmitButton, useZodForm } from "../../components/form/Form.tsx";
import { FormCard } from "../../components/form/FormCard.tsx";
import { screenshotFiles } from "../../components/form/imageFiles.ts";
import { Spinner } from "../../components/ui/Spinner.tsx";
import { ErrorState } from "../../components/ui/States.tsx";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { TaskFacts } from "../../components/ui/TaskFacts.tsx";
import { Countdown } from "../../components/ui/Countdown.tsx";
import { coinCount, formatDate, minutesText } from "../../lib/format.ts";
import { useCancelReservation, useReserve, useSubmitWork } from "../../features/tasks/api.ts";
import { taskQueries } from "../../features/tasks/queries.ts";
import { ConfirmDialog } from "../../components/ui/ConfirmDialog.tsx";
import { useHideBuyer } from "../../features/trust/api.ts";

/** A card beside the task that says where the worker stands, in place of the form. */
function StatusCard({
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
const taskListLink = (
  <Link to={paths.dashboard.taskList} className="btn btn-primary btn-sm self-start">
    Find another task
  </Link>
);

/** The worker's own submission to this task: pending, approved or rejected. */
function Submitted({ submission, pays }: { submission: OwnSubmission; pays: number }) {
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
const notQualified = (failure: unknown): string | null =>
  failure instanceof ApiError && failure.code === "NOT_QUALIFIED" ? failure.message : null;

/** Why a task takes no more submissions, if it does not: closed, past its date, or full. */
function unavailable(task: TaskDetails): string | null {
  if (task.status === "closed") return "This task is closed and takes no more submissions.";
  if (task.completion_date < isoDate(new Date())) return "This task's completion date has passed.";
  if (task.required_workers <= 0) return "All slots of this task are taken.";
  return null;
}

/**
 * Rule R20: the worker's hold on a slot. Without one, "Start task" holds a slot for the task's
 * time limit; with one, the time left and a way to give the slot back.
 */
function ReservationCard({
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
            while you work. You can also submit without starting while slots are free.
          </p>
          <button
            type="button"
            className="btn btn-primary self-start"
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

function SubmitWorkForm({ task, onRefused }: { task: TaskDetails; onRefused: (why: string) => void }) {
  const submit = useSubmitWork(task.id);
  const navigate = useNavigate();
  const schema = useMemo(
    () => submitWorkSchema.extend({ attachments: screenshotFiles(task.proof_images) }),
    [task.proof_images],
  );
  const form = useZodForm(schema, { submission_details: "" });
  const details = useWatch({ control: form.control, name: "submission_details" });

  const onSubmit = async ({ submission_details, attachments }: z.output<typeof schema>) => {
    await submit.mutateAsync({ details: submission_details, screenshots: attachments });
    toast.success("Submission successful!");
    await navigate(paths.dashboard.mySubmissions);
  };
  const onError = (failure: unknown) => {
    const why = notQualified(failure);
    if (why) return onRefused(why);
    toast.error(
      failure instanceof ApiError && failure.status < 500
        ? `Failed to submit: ${failure.message}`
        : "Failed to submit",
    );
  };

  return (
    <FormCard form={form} onSubmit={onSubmit} onError={onError} title="Submit your work" className="h-fit">
      <Field
        as="textarea"
        name="submission_details"
        id="submission-details"
        label="Submission details"
        rows={6}
        maxLength={SUBMISSION_DETAILS_MAX}
        hint={<span className="ml-auto">{`${details.length} / ${SUBMISSION_DETAILS_MAX}`}</span>}
      />
      <Field
        name="attachments"
        id="submission-attachments"
        label={
          task.proof_images > 0
            ? `Screenshots (${task.proof_images} required, up to ${MAX_PROOF_IMAGES})`
            : `Screenshots (optional, up to ${MAX_PROOF_IMAGES})`
        }
        type="file"
        accept="image/*"
        multiple
      />
      <SubmitButton>Submit</SubmitButton>
    </FormCard>
  );
}

/** Rule R23: the worker stops seeing this buyer's tasks (asked first), back to the task list. */
function HideBuyerButton({ task }: { task: TaskDetails }) {
  const navigate = useNavigate();
  const hideBuyer = useHideBuyer();
  const [asking, setAsking] = useState<TaskDetails | null>(null);
  const hide = {
    item: asking,
    busy: hideBuyer.isPending,
    cancel: () => setAsking(null),
    ask: setAsking,
    confirm: async () => {
      if (!asking) return;
      try {
        await hideBuyer.mutateAsync(asking.buyer_id);
      } catch (error) {
        toast.error(errorMessage(error, "Failed to hide the buyer's tasks"));
        setAsking(null);
        return;
      }
      toast.success(`${asking.user_name}'s tasks are hidden. Show them again from Hidden buyers.`);
      await navigate(paths.dashboard.taskList);
    },
  };
  return (
    <div className="card-actions mt-3">
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => hide.ask(task)}>
        <EyeOff className="size-4" aria-hidden="true" />
        Hide this buyer's tasks
      </button>
      <ConfirmDialog
        deletion={hide}
        title={(hidden) => `Hide all of ${hidden.user_name}'s tasks?`}
        message={() =>
          "They will no longer appear in your task list. Work you already sent them stays in My submissions."
        }
        confirmLabel={() => "Hide their tasks"}
      />
    </div>
  );
}

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
        <figure className="aspect-video bg-base-200">
          <img src={data.task_image_url} alt="" className="size-full object-cover" />
        </figure>
        <div className="card-body">
          <h1 className="card-title text-2xl break-words">{data.task_title}</h1>
          <TaskFacts task={data} />
          <h2 className="mt-3 font-semibold">Task details</h2>
          <p className="whitespace-pre-wrap break-words">{data.task_detail}</p>
          <h2 className="mt-3 font-semibold">What to submit</h2>
          <p className="whitespace-pre-wrap break-words">{data.submission_info}</p>
          <HideBuyerButton task={data} />
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
        <div className="grid h-fit gap-4">
          <ReservationCard task={data} reservation={held} onRefused={onRefused} />
          <SubmitWorkForm task={data} onRefused={onRefused} />
        </div>
      )}
    </div>
  );
}
