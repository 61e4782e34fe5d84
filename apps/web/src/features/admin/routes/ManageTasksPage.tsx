import type { Task } from "@taskmint/shared";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { DeleteButton } from "../../../components/ui/DeleteButton.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { TaskTable } from "../../../components/ui/TaskTable.tsx";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { coinCount } from "../../../lib/format.ts";
import { useAdminDeleteTask } from "../api.ts";
import { useTwoFactorGate } from "../../../components/two-factor/TwoFactorNeeded.tsx";
import { adminQueries } from "../queries.ts";

export function ManageTasksPage() {
  const gate = useTwoFactorGate("delete tasks", "delete");
  const deletion = useConfirmedDeletion(useAdminDeleteTask(), {
    variables: (task: Task) => task.id,
    success: ({ refunded_coins }, task) =>
      `Task deleted. ${coinCount(refunded_coins)} ${refunded_coins === 1 ? "was" : "were"} refunded to ${task.user_name}.`,
    failure: "Failed to delete task",
  });

  return (
    <Page title="Manage tasks">
      {gate.notice}
      <PagedList
        keysetPages={adminQueries.tasks}
        errorMessage="Failed to fetch tasks"
        empty="No tasks have been posted yet."
      >
        {(items) => (
          <TaskTable
            tasks={items}
            showBuyer
            actions={(task) =>
              gate.locked ? (
                gate.lockedAction
              ) : (
                <DeleteButton what={task.task_title} onClick={() => deletion.ask(task)} />
              )
            }
          />
        )}
      </PagedList>
      <ConfirmDialog
        deletion={deletion}
        title={(task) => `Delete "${task.task_title}"?`}
        message={(task) =>
          `${coinCount(task.required_workers * task.payable_amount)} for its open slots return to ${task.user_name}. This cannot be undone.`
        }
      />
    </Page>
  );
}
