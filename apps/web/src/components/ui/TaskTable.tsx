import type { ReactNode } from "react";
import type { Task } from "@taskmint/shared";
import { coinCount, formatDate } from "../../lib/format.ts";
import { DataTable } from "./DataTable.tsx";
import { StatusBadge } from "./StatusBadge.tsx";
import { TaskPicture } from "./TaskPicture.tsx";

/** Tasks as table rows, with the buyer (for admins) and each row's action buttons. */
export function TaskTable({
  tasks,
  showBuyer = false,
  actions,
}: {
  tasks: Task[];
  showBuyer?: boolean;
  actions: (task: Task) => ReactNode;
}) {
  return (
    <DataTable
      numeric={["Open slots", "Pay"]}
      headers={["Task", ...(showBuyer ? ["Buyer"] : []), "Open slots", "Pay", "Due", "Status", ""]}
    >
      {tasks.map((task) => (
        <tr key={task.id}>
          <td>
            <div className="flex items-center gap-3">
              <TaskPicture task={task} sizes="40px" className="size-10 shrink-0 rounded object-cover" />
              <span className="font-medium">{task.task_title}</span>
            </div>
          </td>
          {showBuyer && (
            <td>
              <p>{task.user_name}</p>
              <p className="text-xs text-base-content/70">{task.user_email}</p>
            </td>
          )}
          <td>{task.required_workers}</td>
          <td className="whitespace-nowrap">{coinCount(task.payable_amount)}</td>
          <td className="whitespace-nowrap">{formatDate(task.completion_date)}</td>
          <td>
            <StatusBadge status={task.status} />
          </td>
          <td>
            <div className="flex gap-1">{actions(task)}</div>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
