import { Pencil } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "react-toastify";
import { editableTaskFieldsSchema, type EditableTaskFields, type Task } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormModal } from "../../../components/form/FormModal.tsx";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { DeleteButton } from "../../../components/ui/DeleteButton.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { TaskTable } from "../../../components/ui/TaskTable.tsx";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { coinCount } from "../../../lib/format.ts";
import { useDeleteTask, useUpdateTask } from "../api.ts";
import { taskQueries } from "../queries.ts";

function EditTaskModal({ task, onClose }: { task: Task; onClose: () => void }) {
  const update = useUpdateTask();
  const form = useZodForm(editableTaskFieldsSchema, {
    task_title: task.task_title,
    task_detail: task.task_detail,
    submission_info: task.submission_info,
  });
  const onSave = async (fields: EditableTaskFields) => {
    await update.mutateAsync({ id: task.id, fields });
    toast.success("Task updated successfully.");
    onClose();
  };
  return (
    <FormModal
      form={form}
      onSubmit={onSave}
      title="Edit task"
      onClose={onClose}
      actions={<SubmitButton>Save</SubmitButton>}
    >
      <Field name="task_title" id="edit-title" label="Task title" />
      <Field as="textarea" name="task_detail" id="edit-detail" label="Task details" rows={4} />
      <Field as="textarea" name="submission_info" id="edit-info" label="What to submit" rows={2} />
      <FormError />
    </FormModal>
  );
}

export function MyTasksPage() {
  const [editing, setEditing] = useState<Task | null>(null);
  const deletion = useConfirmedDeletion(useDeleteTask(), {
    variables: (task: Task) => task.id,
    success: ({ refunded_coins }) =>
      `Task deleted. ${coinCount(refunded_coins)} ${refunded_coins === 1 ? "was" : "were"} refunded to you.`,
    failure: "Failed to delete task",
  });

  return (
    <Page
      title="My tasks"
      actions={
        <Link to={paths.dashboard.addTasks} className="btn btn-primary btn-sm">
          Add a task
        </Link>
      }
    >
      <PagedList
        pages={taskQueries.buyerTasks}
        errorMessage="Failed to fetch tasks"
        empty={{
          title: "You have not posted a task yet.",
          link: { to: paths.dashboard.addTasks, label: "Add a task" },
        }}
      >
        {(items) => (
          <TaskTable
            tasks={items}
            actions={(task) => (
              <>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => setEditing(task)}
                  aria-label={`Edit ${task.task_title}`}
                >
                  <Pencil className="size-4" aria-hidden="true" />
                  Edit
                </button>
                <DeleteButton what={task.task_title} onClick={() => deletion.ask(task)} />
              </>
            )}
          />
        )}
      </PagedList>
      {editing && <EditTaskModal task={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        deletion={deletion}
        title={(task) => `Delete "${task.task_title}"?`}
        message={(task) =>
          `${coinCount(task.required_workers * task.payable_amount)} for its open slots return to your balance. Submissions waiting for review are still yours to decide. This cannot be undone.`
        }
      />
    </Page>
  );
}
