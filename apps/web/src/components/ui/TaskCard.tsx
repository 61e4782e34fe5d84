import { CalendarDays, Clock, Coins, Users } from "lucide-react";
import type { ReactNode } from "react";
import { categoryName, type Task } from "@taskmint/shared";
import { buyerReputationText, requirementText } from "../../features/trust/components/Reputation.tsx";
import { coinCount, formatDate, minutesText, openSlots, payPerHour } from "../../lib/format.ts";
import { TaskPicture } from "./TaskPicture.tsx";

/** "Dec 20": a due date in a phone's one line (the year of a task's date is nearly always this one's). */
const formatShortDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric" });

/** The grid task cards stand in, for lists of cards. */
export const TASK_CARD_GRID = "grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4";

/** The task's category, small and above its title. */
export function TaskCategory({ task }: { task: Task }) {
  return (
    <p className="text-xs font-semibold uppercase tracking-wide text-base-content/70">
      {categoryName(task.category)}
    </p>
  );
}

/** What a worker weighs at a glance: pay (and per hour), time, open slots, due date. */
export function TaskMetrics({ task }: { task: Task }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <li className="flex items-center gap-1">
        <Coins className="size-4 text-accent" aria-hidden="true" />
        {coinCount(task.payable_amount)}
        <span className="text-base-content/70">
          ({payPerHour(task.payable_amount, task.estimated_minutes)})
        </span>
      </li>
      <li className="flex items-center gap-1">
        <Clock className="size-4" aria-hidden="true" />
        {minutesText(task.estimated_minutes)}
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
  );
}

/**
 * Who posted the task and how they review (rule R21), and what it requires of a worker, which a
 * worker who does not meet it reads before opening it.
 */
export function TaskBuyer({ task }: { task: Task }) {
  const requires = requirementText(task);
  return (
    <>
      <p className="text-sm text-base-content/70">
        by {task.user_name} · {buyerReputationText(task.buyer_reputation)}
      </p>
      {requires && <p className="badge badge-outline badge-sm">{requires}</p>}
    </>
  );
}

/** A phone's one line on the buyer: who, how they review (rule R21), what the task requires. */
export function taskBuyerShort(task: Task): string {
  const rate = task.buyer_reputation.approval_rate;
  const requires = requirementText(task);
  return [
    task.user_name,
    rate === null ? "new buyer" : `approves ${rate}%`,
    ...(requires ? [requires] : []),
  ].join(" · ");
}

/** Cards of grey blocks the size of task cards, while the tasks load (no jump when they come). */
export function TaskCardSkeletons({ count = 8 }: { count?: number }) {
  return (
    <div className={TASK_CARD_GRID} role="status">
      <span className="sr-only">Loading tasks</span>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="card flex-row bg-base-100 shadow-sm ring-1 ring-base-300 sm:flex-col">
          <div className="skeleton m-3 mr-0 size-20 shrink-0 sm:m-0 sm:aspect-video sm:size-auto sm:rounded-b-none" />
          <div className="card-body flex-1 gap-3 p-3 sm:p-4">
            <div className="skeleton h-5 w-4/5" />
            <div className="skeleton h-4 w-1/2" />
            <div className="skeleton h-4 w-full" />
            <div className="skeleton ml-auto mt-2 h-8 w-20" />
          </div>
        </div>
      ))}
    </div>
  );
}

/**
 * A task as a card: picture, title, buyer, pay, open slots, due date and the caller's action.
 * On phones a short card, the picture a thumbnail beside the title and the facts on one line;
 * wider, the picture across the top and every fact.
 * `picture`: "first" loads it at once and before anything else (the first card's picture is the
 * page's largest paint on wide screens), "eager" at once (the rest of the first row), "lazy" once
 * scrolled near.
 */
export function TaskCard({
  task,
  action,
  picture = "lazy",
}: {
  task: Task;
  action: ReactNode;
  picture?: "first" | "eager" | "lazy";
}) {
  return (
    <article className="card flex-row bg-base-100 shadow-sm ring-1 ring-base-300 sm:flex-col">
      <figure className="m-3 mr-0 size-20 shrink-0 self-start rounded-box bg-base-200 sm:m-0 sm:aspect-video sm:size-auto sm:self-auto sm:rounded-none">
        <TaskPicture
          task={task}
          // TASK_CARD_GRID's columns; an 80 px square on phones.
          sizes="(min-width: 1280px) 25vw, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 80px"
          className="size-full object-cover"
          loading={picture === "lazy" ? "lazy" : "eager"}
          fetchPriority={picture === "first" ? "high" : "auto"}
        />
      </figure>
      <div className="card-body min-w-0 flex-1 gap-1 p-3 sm:gap-2 sm:p-4">
        <TaskCategory task={task} />
        <h2 className="card-title line-clamp-2 text-base break-words sm:line-clamp-none">
          {task.task_title}
        </h2>
        <p className="truncate text-xs text-base-content/70 sm:hidden">{taskBuyerShort(task)}</p>
        <div className="hidden gap-2 sm:grid">
          <div className="grid justify-items-start gap-1">
            <TaskBuyer task={task} />
          </div>
          <TaskMetrics task={task} />
        </div>
        {/* Phones: the facts and the action share the card's last line. */}
        <div className="flex items-center justify-between gap-2 sm:mt-2 sm:justify-end">
          <p className="min-w-0 text-sm sm:hidden">
            {/* A line breaks between facts, never inside one ("Due | Dec 11"). */}
            <span className="font-semibold whitespace-nowrap">{coinCount(task.payable_amount)}</span> ·{" "}
            <span className="whitespace-nowrap">{minutesText(task.estimated_minutes)}</span> ·{" "}
            <span className="whitespace-nowrap">Due {formatShortDate(task.completion_date)}</span>
          </p>
          <div className="card-actions shrink-0">{action}</div>
        </div>
      </div>
    </article>
  );
}
