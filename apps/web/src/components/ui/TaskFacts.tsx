import type { ReactNode } from "react";
import { categoryName, type Task } from "@taskmint/shared";
import { buyerReputationText, requirementText } from "../../features/trust/components/Reputation.tsx";
import { coinCount, formatDate, minutesText, openSlots, payPerHour } from "../../lib/format.ts";

/** A task's facts as a worker weighs them, for its details page and dialog; `children` add rows after the buyer. */
export function TaskFacts({ task, children }: { task: Task; children?: ReactNode }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="font-semibold">Category</dt>
      <dd>{categoryName(task.category)}</dd>
      <dt className="font-semibold">Posted by</dt>
      <dd>{task.user_name}</dd>
      <dt className="font-semibold">Reviews</dt>
      <dd>{buyerReputationText(task.buyer_reputation)}</dd>
      {requirementText(task) && (
        <>
          <dt className="font-semibold">Who can take it</dt>
          <dd>{requirementText(task)}</dd>
        </>
      )}
      {children}
      <dt className="font-semibold">Pays</dt>
      <dd>
        {coinCount(task.payable_amount)} per worker, {payPerHour(task.payable_amount, task.estimated_minutes)}
      </dd>
      <dt className="font-semibold">Takes</dt>
      <dd>about {minutesText(task.estimated_minutes)}</dd>
      {task.proof_images > 0 && (
        <>
          <dt className="font-semibold">Proof</dt>
          <dd>{task.proof_images === 1 ? "1 screenshot" : `${task.proof_images} screenshots`}</dd>
        </>
      )}
      <dt className="font-semibold">Open slots</dt>
      <dd>{task.required_workers > 0 ? openSlots(task.required_workers) : "None left"}</dd>
      <dt className="font-semibold">Due</dt>
      <dd>{formatDate(task.completion_date)}</dd>
    </dl>
  );
}
