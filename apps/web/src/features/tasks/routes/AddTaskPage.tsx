import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { toast } from "react-toastify";
import { z } from "zod";
import { createTaskFieldsSchema, isoDate, MAX_IMAGE_BYTES } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Modal } from "../../../components/ui/Modal.tsx";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { ApiError } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { formatCoins } from "../../../lib/format.ts";
import { useCreateTask } from "../api.ts";
import { FormField } from "../components/FormField.tsx";

const addTaskSchema = createTaskFieldsSchema.extend({
  task_image: z
    .custom<FileList>((value) => value instanceof FileList && value.length > 0, "Task image is required")
    .refine((files) => files[0]?.type.startsWith("image/"), "The task image must be an image")
    .refine((files) => (files[0]?.size ?? 0) <= MAX_IMAGE_BYTES, "Images must be at most 5 MB"),
});
type AddTaskInput = z.input<typeof addTaskSchema>;
type AddTaskValues = z.output<typeof addTaskSchema>;

const FIELDS = [
  "task_title",
  "task_detail",
  "required_workers",
  "payable_amount",
  "completion_date",
  "submission_info",
  "task_image",
] as const;

export function AddTaskPage() {
  const { data: user } = useMe();
  const createTask = useCreateTask();
  const navigate = useNavigate();
  const [insufficient, setInsufficient] = useState(false);
  const form = useForm<AddTaskInput, unknown, AddTaskValues>({
    resolver: zodResolver(addTaskSchema),
    defaultValues: { task_title: "", task_detail: "", submission_info: "", completion_date: "" },
  });
  const { errors } = form.formState;
  const [workers, amount] = useWatch({ control: form.control, name: ["required_workers", "payable_amount"] });
  const totalCost = (Number(workers) || 0) * (Number(amount) || 0);
  const coins = user?.coins ?? 0;

  const onSubmit = form.handleSubmit(async (values) => {
    if (values.required_workers * values.payable_amount > coins) {
      setInsufficient(true);
      return;
    }
    const body = new FormData();
    for (const field of FIELDS) {
      if (field !== "task_image") body.append(field, String(values[field]));
    }
    const image = values.task_image[0];
    if (image) body.append("task_image", image);
    try {
      await createTask.mutateAsync(body);
      toast.success("Your task has been created successfully");
      await navigate(paths.dashboard.myTasks);
    } catch (error) {
      if (error instanceof ApiError && error.code === "INSUFFICIENT_COINS") {
        setInsufficient(true);
        return;
      }
      toast.error(
        error instanceof ApiError && error.status < 500
          ? error.message
          : "Failed to create task. Please try again.",
      );
      if (error instanceof ApiError && error.details) {
        for (const field of FIELDS) {
          const message = error.details[field];
          if (message) form.setError(field, { message });
        }
      }
    }
  });

  const input = (field: (typeof FIELDS)[number]) => ({
    id: `task-${field}`,
    "aria-invalid": Boolean(errors[field]),
    ...form.register(field),
  });

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Add Micro Task for Earning" />
      <form className="card bg-base-100 shadow-sm" onSubmit={(event) => void onSubmit(event)} noValidate>
        <div className="card-body grid gap-x-6 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <FormField id="task-task_title" label="Task Title" error={errors.task_title?.message}>
              <input type="text" className="input w-full" {...input("task_title")} />
            </FormField>
          </div>
          <div className="sm:col-span-2">
            <FormField id="task-task_detail" label="Task Detail" error={errors.task_detail?.message}>
              <textarea className="textarea w-full" rows={4} {...input("task_detail")} />
            </FormField>
          </div>
          <FormField
            id="task-required_workers"
            label="Required Workers"
            error={errors.required_workers?.message}
          >
            <input
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              className="input w-full"
              {...input("required_workers")}
            />
          </FormField>
          <FormField
            id="task-payable_amount"
            label="Payable Amount (coins per worker)"
            error={errors.payable_amount?.message}
          >
            <input
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              className="input w-full"
              {...input("payable_amount")}
            />
          </FormField>
          <FormField
            id="task-completion_date"
            label="Completion Date"
            error={errors.completion_date?.message}
          >
            <input
              type="date"
              min={isoDate(new Date())}
              className="input w-full"
              {...input("completion_date")}
            />
          </FormField>
          <FormField id="task-task_image" label="Task Image" error={errors.task_image?.message}>
            <input type="file" accept="image/*" className="file-input w-full" {...input("task_image")} />
          </FormField>
          <div className="sm:col-span-2">
            <FormField
              id="task-submission_info"
              label="Submission Info"
              error={errors.submission_info?.message}
              hint="What workers must send as proof."
            >
              <textarea className="textarea w-full" rows={2} {...input("submission_info")} />
            </FormField>
          </div>
          <div
            className="sm:col-span-2 flex flex-wrap items-center justify-between gap-3 rounded-box bg-base-200 p-4"
            aria-live="polite"
          >
            <p>
              Total cost: <strong data-testid="total-cost">{formatCoins(totalCost)} coins</strong>
            </p>
            <p className={totalCost > coins ? "text-error" : "text-base-content/70"}>
              You have {formatCoins(coins)} coins
            </p>
          </div>
          <div className="sm:col-span-2">
            <button type="submit" className="btn btn-primary w-full" disabled={createTask.isPending}>
              {createTask.isPending && (
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              )}
              Add Task
            </button>
          </div>
        </div>
      </form>
      <Modal
        open={insufficient}
        title="Insufficient Coins!"
        onClose={() => setInsufficient(false)}
        actions={
          <Link to={paths.dashboard.purchaseCoin} className="btn btn-primary">
            Purchase Coin
          </Link>
        }
      >
        <p>
          This task costs {formatCoins(totalCost)} coins but you have {formatCoins(coins)}. Buy more coins to
          post it.
        </p>
      </Modal>
    </div>
  );
}
