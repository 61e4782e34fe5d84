import { CalendarDays, Coins, Users } from "lucide-react";
import type { ReactNode } from "react";
import type { Task } from "@taskmint/shared";
import { coinCount, formatDate, openSlots } from "../../lib/format.ts";

export function TaskCard({ task, action }: { task: Task; action: ReactNode }) {
  return (
    <article className="card bg-base-100 shadow-sm ring-1 ring-base-300">
      <figure className="aspect-video bg-base-200">
        <img src={task.task_image_url} alt="" className="size-full object-cover" loading="lazy" />
      </figure>
      <div className="card-body gap-2 p-4">
        <h3 className="card-title text-base">{task.task_title}</h3>
        <p className="text-sm text-base-content/70">by {task.user_name}</p>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <li className="flex items-center gap-1">
            <Coins className="size-4 text-accent" aria-hidden="true" />
            {coinCount(task.payable_amount)}
          </li>
          <li className="flex items-center gap-1">
            <Users className="size-4" aria-hidden="true" />
            {openSlots(task.required_workers)}
          </li>
          <li className="flex items-center gap-1">
            <CalendarDays className="size-4" aria-hidden="true" />
            Due {formatDate(task.completion_date)}
          </li>
        </ul>
        <div className="card-actions mt-2 justify-end">{action}</div>
      </div>
    </article>
  );
}
