import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { zodResolver } from "@hookform/resolvers/zod";
import { Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "react-toastify";
import { editableTaskFieldsSchema, type EditableTaskFields, type Task } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { Modal } from "../../../components/ui/Modal.tsx";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { EmptyState } from "../../../components/ui/States.tsx";
import { StatusBadge } from "../../../components/ui/StatusBadge.tsx";
import { formatDate } from "../../../lib/format.ts";
import { useDeleteTask, useUpdateTask } from "../api.ts";
import { taskQueries } from "../queries.ts";
import { FormField } from "../components/FormField.tsx";

function EditTaskModal({ task, onClose }: { task: Task; onClose: () => void }) {
  const update = useUpdateTask();
  const form = useForm<EditableTaskFields>({
    resolver: zodResolver(editableTaskFieldsSchema),
    defaultValues: {
      task_title: task.task_title,
      task_detail: task.task_detail,
      submission_info: task.submission_info,
    },
  });
  const { errors } = form.formState;
  const onSave = form.handleSubmit((fields) =>
    update.mutateAsync({ id: task.id, fields }).then(
      () => {
        toast.success("Task updated successfully.");
        onClose();
      },
      () => toast.error("Failed to update task"),
    ),
  );
  return (
    <Modal
      open
      title="Edit task"
      onClose={onClose}
      actions={
        <button type="submit" form="edit-task" className="btn btn-primary" disabled={update.isPending}>
          {update.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Save
        </button>
      }
    >
      <form id="edit-task" onSubmit={(event) => void onSave(event)} noValidate>
        <FormField id="edit-title" label="Task Title" error={errors.task_title?.message}>
          <input id="edit-title" className="input w-full" {...form.register("task_title")} />
        </FormField>
        <FormField id="edit-detail" label="Task Detail" error={errors.task_detail?.message}>
          <textarea id="edit-detail" className="textarea w-full" rows={4} {...form.register("task_detail")} />
        </FormField>
        <FormField id="edit-info" label="Submission Info" error={errors.submission_info?.message}>
          <textarea
            id="edit-info"
            className="textarea w-full"
            rows={2}
            {...form.register("submission_info")}
          />
        </FormField>
      </form>
    </Modal>
  );
}

export function MyTasksPage() {
  const [page, setPage] = useState(1);
  const tasks = useQuery(taskQueries.buyerTasks(page));
  const remove = useDeleteTask();
  const [editing, setEditing] = useState<Task | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: ({ refunded_coins }) => {
        toast.success(`Task deleted successfully. ${refunded_coins} coins were refunded to you.`);
        setDeleting(null);
      },
      onError: () => toast.error("Failed to delete task"),
    });
  };

  return (
    <div>
      <PageHeader title="My Tasks">
        <Link to={paths.dashboard.addTasks} className="btn btn-primary btn-sm">
          Add new Task
        </Link>
      </PageHeader>
      <PagedList
        query={tasks}
        errorMessage="Failed to fetch tasks"
        empty={
          <EmptyState title="You have not posted any tasks yet.">
            <Link to={paths.dashboard.addTasks} className="link link-primary">
              Post your first task
            </Link>
          </EmptyState>
        }
        onPage={setPage}
      >
        {(items) => (
          <DataTable headers={["Task", "Open slots", "Pay", "Due", "Status", ""]}>
            {items.map((task) => (
              <tr key={task.id}>
                <td>
                  <div className="flex items-center gap-3">
                    <img
                      src={task.task_image_url}
                      alt=""
                      className="size-10 rounded object-cover"
                      loading="lazy"
                    />
                    <span className="font-medium">{task.task_title}</span>
                  </div>
                </td>
                <td>{task.required_workers}</td>
                <td>{task.payable_amount} coins</td>
                <td className="whitespace-nowrap">{formatDate(task.completion_date)}</td>
                <td>
                  <StatusBadge status={task.status} />
                </td>
                <td>
                  <div className="flex gap-1">
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      onClick={() => setEditing(task)}
                      aria-label={`Edit ${task.task_title}`}
                    >
                      <Pencil className="size-4" aria-hidden="true" />
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm text-error"
                      onClick={() => setDeleting(task)}
                      aria-label={`Delete ${task.task_title}`}
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      {editing && <EditTaskModal task={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="Are you sure?"
        message="You won't be able to revert this!"
        confirmLabel="Yes, delete it"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
