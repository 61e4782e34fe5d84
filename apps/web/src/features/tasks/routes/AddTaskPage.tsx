import { useState } from "react";
import { useWatch } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { toast } from "react-toastify";
import type { z } from "zod";
import {
  createTaskFieldsSchema,
  LEVEL_NAMES,
  workerLevels,
  ESTIMATED_MINUTES,
  isoDate,
  MAX_PROOF_IMAGES,
  TASK_CATEGORIES,
  TIME_LIMIT_MINUTES,
} from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, Form, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { imageFiles } from "../../../components/form/imageFiles.ts";
import { Modal } from "../../../components/ui/Modal.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { ApiError } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { coinCount, payPerHour } from "../../../lib/format.ts";
import { useCreateTask } from "../api.ts";

const addTaskSchema = createTaskFieldsSchema.extend({ task_image: imageFiles("task image") });

export function AddTaskPage() {
  const { data: user } = useMe();
  const createTask = useCreateTask();
  const navigate = useNavigate();
  const [insufficient, setInsufficient] = useState(false);
  const form = useZodForm(addTaskSchema, {
    task_title: "",
    task_detail: "",
    submission_info: "",
    completion_date: "",
    time_limit_minutes: TIME_LIMIT_MINUTES.default,
    proof_images: 0,
    min_approval_rate: 0,
    min_level: "new",
  });
  const [workers, amount, minutes] = useWatch({
    control: form.control,
    name: ["required_workers", "payable_amount", "estimated_minutes"],
  });
  const totalCost = (Number(workers) || 0) * (Number(amount) || 0);
  const rate =
    Number(amount) >= 1 && Number(minutes) >= 1 ? payPerHour(Number(amount), Number(minutes)) : null;
  const coins = user?.coins ?? 0;

  const onSubmit = async ({ task_image, ...fields }: z.output<typeof addTaskSchema>) => {
    if (fields.required_workers * fields.payable_amount > coins) {
      setInsufficient(true);
      return;
    }
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
    const image = task_image[0];
    if (image) body.append("task_image", image);
    await createTask.mutateAsync(body);
    toast.success("Your task has been created successfully");
    await navigate(paths.dashboard.myTasks);
  };

  // One feedback per failure: the fields' own messages, the coins dialog, or one line by the button.
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.code === "INSUFFICIENT_COINS") setInsufficient(true);
    else if (error instanceof ApiError && error.code === "VALIDATION" && error.details) return;
    else
      form.setError("root", {
        message:
          error instanceof ApiError && error.status < 500
            ? error.message
            : "The task could not be added. Please try again.",
      });
  };

  return (
    <Page title="Add a micro task" className="mx-auto max-w-3xl">
      <Form form={form} onSubmit={onSubmit} onError={onError} className="card bg-base-100 shadow-sm">
        <div className="card-body grid gap-x-6 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <Field name="task_title" id="task-task_title" label="Task title" />
          </div>
          <div className="sm:col-span-2">
            <Field as="textarea" name="task_detail" id="task-task_detail" label="Task details" rows={4} />
          </div>
          <Field as="select" name="category" id="task-category" label="Category" defaultValue="">
            <option value="" disabled>
              Select…
            </option>
            {TASK_CATEGORIES.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </Field>
          <Field
            name="estimated_minutes"
            id="task-estimated_minutes"
            label="Estimated time (minutes)"
            hint={rate ? `Pays ${rate} at this estimate.` : "How long one worker needs, honestly."}
            type="number"
            min={ESTIMATED_MINUTES.min}
            max={ESTIMATED_MINUTES.max}
            step={1}
            inputMode="numeric"
          />
          <Field
            name="required_workers"
            id="task-required_workers"
            label="Number of workers"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
          />
          <Field
            name="payable_amount"
            id="task-payable_amount"
            label="Pay per worker (coins)"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
          />
          <Field
            name="completion_date"
            id="task-completion_date"
            label="Completion date"
            type="date"
            min={isoDate(new Date())}
          />
          <Field name="task_image" id="task-task_image" label="Task image" type="file" accept="image/*" />
          <Field
            name="time_limit_minutes"
            id="task-time_limit_minutes"
            label="Time limit (minutes)"
            hint="How long a started task holds its slot for the worker."
            type="number"
            min={TIME_LIMIT_MINUTES.min}
            max={TIME_LIMIT_MINUTES.max}
            step={1}
            inputMode="numeric"
          />
          <Field as="select" name="proof_images" id="task-proof_images" label="Screenshots required">
            {Array.from({ length: MAX_PROOF_IMAGES + 1 }, (_, count) => (
              <option key={count} value={count}>
                {count === 0 ? "None" : count}
              </option>
            ))}
          </Field>
          <div className="sm:col-span-2">
            <Field
              as="textarea"
              name="submission_info"
              id="task-submission_info"
              label="What to submit"
              hint="What workers must send as proof."
              rows={2}
            />
          </div>
          <fieldset className="sm:col-span-2 grid gap-x-4 rounded-box border border-base-300 p-4 sm:grid-cols-2">
            <legend className="px-1 font-semibold">Who can take it (optional)</legend>
            <p className="text-sm text-base-content/70 sm:col-span-2">
              Workers who do not meet these do not see the task. The defaults let anyone take it.
            </p>
            <Field as="select" name="min_level" id="task-min_level" label="Least worker level">
              {workerLevels.map((level) => (
                <option key={level} value={level}>
                  {level === "new" ? "Anyone (New and up)" : `${LEVEL_NAMES[level]} and up`}
                </option>
              ))}
            </Field>
            <Field
              name="min_approval_rate"
              id="task-min_approval_rate"
              label="Least approval rate (%)"
              hint="0 lets anyone take it, new workers too."
              type="number"
              min={0}
              max={100}
              inputMode="numeric"
            />
          </fieldset>
          <div
            className="sm:col-span-2 flex flex-wrap items-center justify-between gap-3 rounded-box bg-base-200 p-4"
            aria-live="polite"
          >
            <p>
              Total cost: <strong data-testid="total-cost">{coinCount(totalCost)}</strong>
            </p>
            <p className={totalCost > coins ? "text-error" : "text-base-content/70"}>
              You have {coinCount(coins)}
            </p>
          </div>
          <div className="sm:col-span-2 grid gap-3">
            <FormError />
            <SubmitButton className="btn btn-primary w-full">Add task</SubmitButton>
          </div>
        </div>
      </Form>
      <Modal
        open={insufficient}
        title="Insufficient coins!"
        onClose={() => setInsufficient(false)}
        actions={
          <Link to={paths.dashboard.purchaseCoin} className="btn btn-primary">
            Buy coins
          </Link>
        }
      >
        <p>
          This task costs {coinCount(totalCost)}, but you have {coinCount(coins)}. Buy more coins to post it.
        </p>
      </Modal>
    </Page>
  );
}
