import { useQuery } from "@tanstack/react-query";
import type { Task } from "@taskmint/shared";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { DeleteButton } from "../../../components/ui/DeleteButton.tsx";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { TaskTable } from "../../../components/ui/TaskTable.tsx";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { useCursorPages } from "../../../lib/cursorPages.ts";
import { useAdminDeleteTask } from "../api.ts";
import { adminQueries } from "../queries.ts";

export function ManageTasksPage() {
  const paging = useCursorPages();
  const tasks = useQuery(adminQueries.tasks(paging.query));
  const deletion = useConfirmedDeletion(useAdminDeleteTask(), {
    variables: (task: Task) => task.id,
    success: ({ refunded_coins }, task) =>
      `Task deleted. ${refunded_coins} coins were refunded to ${task.user_name}.`,
    failure: "Failed to delete task",
  });

  return (
    <div>
      <PageHeader title="Manage Task" />
      <PagedList
        query={tasks}
        errorMessage="Failed to fetch tasks"
        empty="There are no tasks."
        onPage={(page) => paging.go(page, tasks.data)}
      >
        {(items) => (
          <TaskTable
            tasks={items}
            showBuyer
            actions={(task) => <DeleteButton what={task.task_title} onClick={() => deletion.ask(task)} />}
          />
        )}
      </PagedList>
      <ConfirmDialog
        open={deletion.item !== null}
        title="Are you sure?"
        message="You won't be able to revert this! The buyer gets the coins of the open slots back."
        confirmLabel="Yes, delete it"
        busy={deletion.busy}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </div>
  );
}
