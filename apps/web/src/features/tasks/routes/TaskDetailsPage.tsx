import { useQuery } from "@tanstack/react-query";
import { useWatch } from "react-hook-form";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "react-toastify";
import { SUBMISSION_DETAILS_MAX, submitWorkSchema, type SubmitWork } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormCard } from "../../../components/form/FormCard.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { ApiError } from "../../../lib/api.ts";
import { formatDate } from "../../../lib/format.ts";
import { useSubmitWork } from "../api.ts";
import { taskQueries } from "../queries.ts";

export function TaskDetailsPage() {
  const { id = "" } = useParams();
  const task = useQuery(taskQueries.detail(id));
  const submit = useSubmitWork(id);
  const navigate = useNavigate();
  const form = useZodForm(submitWorkSchema, { submission_details: "" });
  const details = useWatch({ control: form.control, name: "submission_details" });

  if (task.isPending) return <Spinner />;
  if (task.isError) {
    const missing =
      task.error instanceof ApiError && (task.error.status === 404 || task.error.status === 400);
    return (
      <div className="space-y-4">
        <ErrorState message={missing ? "Task not found" : "Failed to load task details"} />
        <Link to={paths.dashboard.taskList} className="btn">
          Back to tasks
        </Link>
      </div>
    );
  }
  const data = task.data;

  const onSubmit = async ({ submission_details }: SubmitWork) => {
    await submit.mutateAsync(submission_details);
    toast.success("Submission successful!");
    await navigate(paths.dashboard.mySubmissions);
  };
  const onError = (failure: unknown) =>
    toast.error(
      failure instanceof ApiError && failure.status < 500
        ? `Failed to submit: ${failure.message}`
        : "Failed to submit",
    );

  return (
    <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
      <article className="card bg-base-100 shadow-sm">
        <figure className="aspect-video bg-base-200">
          <img src={data.task_image_url} alt="" className="size-full object-cover" />
        </figure>
        <div className="card-body">
          <h1 className="card-title text-2xl">{data.task_title}</h1>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">Posted by</dt>
            <dd>{data.user_name}</dd>
            <dt className="font-semibold">Pays</dt>
            <dd>{data.payable_amount} coins</dd>
            <dt className="font-semibold">Workers needed</dt>
            <dd>{data.required_workers}</dd>
            <dt className="font-semibold">Due</dt>
            <dd>{formatDate(data.completion_date)}</dd>
          </dl>
          <h2 className="mt-3 font-semibold">Task details</h2>
          <p className="whitespace-pre-wrap break-words">{data.task_detail}</p>
          <h2 className="mt-3 font-semibold">What to submit</h2>
          <p className="whitespace-pre-wrap break-words">{data.submission_info}</p>
        </div>
      </article>
      <FormCard form={form} onSubmit={onSubmit} onError={onError} title="Submit Your Work" className="h-fit">
        <Field
          as="textarea"
          name="submission_details"
          id="submission-details"
          label="Submission details"
          rows={6}
          maxLength={SUBMISSION_DETAILS_MAX}
          hint={<span className="ml-auto">{`${details.length} / ${SUBMISSION_DETAILS_MAX}`}</span>}
        />
        <SubmitButton>Submit</SubmitButton>
      </FormCard>
    </div>
  );
}
