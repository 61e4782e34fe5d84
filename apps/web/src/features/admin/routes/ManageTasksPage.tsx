import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "react-toastify";
import type { Task } from "@taskmint/shared";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { EmptyState } from "../../../components/ui/States.tsx";
import { StatusBadge } from "../../../components/ui/StatusBadge.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useCursorPages } from "../../../lib/cursorPages.ts";
import { formatDate } from "../../../lib/format.ts";
import { useAdminDeleteTask } from "../api.ts";
import { adminQueries } from "../queries.ts";

export function ManageTasksPage() {
  const paging = useCursorPages();
  const tasks = useQuery(adminQueries.tasks(paging.query));
  const remove = useAdminDeleteTask();
  const [deleting, setDeleting] = useState<Task | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: ({ refunded_coins }) => {
        toast.success(`Task deleted. ${refunded_coins} coins were refunded to ${deleting.user_name}.`);
        setDeleting(null);
      },
      onError: (error) => {
        toast.error(errorMessage(error, "Failed to delete task"));
        setDeleting(null);
      },
    });
  };

  return (
    <div>
      <PageHeader title="Manage Task" />
      <PagedList
        query={tasks}
        errorMessage="Failed to fetch tasks"
        empty={<EmptyState title="There are no tasks." />}
        onPage={(page) => paging.go(page, tasks.data)}
      >
        {(items) => (
          <DataTable headers={["Task", "Buyer", "Open slots", "Pay", "Due", "Status", ""]}>
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
                <td>
                  <p>{task.user_name}</p>
                  <p className="text-xs text-base-content/60">{task.user_email}</p>
                </td>
                <td>{task.required_workers}</td>
                <td className="whitespace-nowrap">{task.payable_amount} coins</td>
                <td className="whitespace-nowrap">{formatDate(task.completion_date)}</td>
                <td>
                  <StatusBadge status={task.status} />
                </td>
                <td>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm text-error"
                    aria-label={`Delete ${task.task_title}`}
                    onClick={() => setDeleting(task)}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      <ConfirmDialog
        open={Boolean(deleting)}
        title="Are you sure?"
        message="You won't be able to revert this! The buyer gets the coins of the open slots back."
        confirmLabel="Yes, delete it"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
