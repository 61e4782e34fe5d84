// The form that sends a worker's work, and the second way in to it: submitting without starting.
import { ChevronDown } from "lucide-react";
import { useMemo } from "react";
import type { z } from "zod";
import { useWatch } from "react-hook-form";
import { useNavigate } from "react-router";
import { toast } from "react-toastify";
import {
  SUBMISSION_DETAILS_MAX,
  MAX_PROOF_IMAGES,
  submitWorkSchema,
  type TaskDetails,
} from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormCard } from "../../../components/form/FormCard.tsx";
import { screenshotFiles } from "../../../components/form/imageFiles.ts";
import { ApiError } from "../../../lib/api.ts";
import { plural } from "../../../lib/format.ts";
import { useSubmitWork } from "../api.ts";
import { notQualified } from "./TaskWorkCards.tsx";

/**
 * The second way in, folded under the first: a worker who did the work already may send it
 * while a slot is free, without holding one first (rule R20); the submission takes the slot.
 */
export function SubmitWithoutStarting({
  task,
  onRefused,
}: {
  task: TaskDetails;
  onRefused: (why: string) => void;
}) {
  return (
    <details className="group rounded-box bg-base-100 shadow-sm">
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 rounded-box px-6 py-3 [&::-webkit-details-marker]:hidden">
        <span>
          <span className="block text-sm font-semibold">Submit without starting</span>
          <span className="block text-xs text-base-content/70">
            Done the work already? Send it while a slot is free.
          </span>
        </span>
        <ChevronDown
          className="size-4 shrink-0 transition-transform group-open:rotate-180"
          aria-hidden="true"
        />
      </summary>
      <p className="px-6 text-sm text-base-content/80">
        No slot is held for you: your work takes one of the {plural(task.required_workers, "free slot")} as
        you send it, if one is still free then.
      </p>
      <SubmitWorkForm task={task} onRefused={onRefused} title={null} submitLabel="Submit without starting" />
    </details>
  );
}

export function SubmitWorkForm({
  task,
  onRefused,
  title = "Submit your work",
  submitLabel = "Submit work",
}: {
  task: TaskDetails;
  onRefused: (why: string) => void;
  title?: string | null;
  submitLabel?: string;
}) {
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
    <FormCard
      form={form}
      onSubmit={onSubmit}
      onError={onError}
      title={title ?? undefined}
      className={title ? "h-fit" : "h-fit shadow-none"}
    >
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
      <SubmitButton>{submitLabel}</SubmitButton>
    </FormCard>
  );
}
