import {
  LEVEL_NAMES,
  LEVEL_RULES,
  type BuyerReputation,
  type Qualification,
  type WorkerReputation,
} from "@taskmint/shared";
import { plural } from "../../../lib/format.ts";

const LEVEL_STYLE: Record<WorkerReputation["level"], string> = {
  new: "badge-ghost",
  bronze: "badge-warning badge-soft",
  silver: "badge-info badge-soft",
  gold: "badge-success badge-soft",
};

/** Fewer decided submissions than the lowest level asks for: too few to judge the worker by. */
const NEW_WORKER_BELOW = Math.min(...LEVEL_RULES.map((rule) => rule.decided));

/**
 * A worker's level, approval rate and the count behind it (rule R21), as buyers see it; "New
 * worker" while fewer than 10 of their submissions are decided.
 */
export function WorkerReputationLine({ reputation }: { reputation: WorkerReputation }) {
  const { level, approval_rate, decided } = reputation;
  const isNew = decided < NEW_WORKER_BELOW;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className={`badge badge-sm ${LEVEL_STYLE[level]}`}>
        {isNew ? "New worker" : LEVEL_NAMES[level]}
      </span>
      <span className="text-sm text-base-content/80">
        {approval_rate === null
          ? "No decided work yet"
          : `${approval_rate}% approved of ${plural(decided, "decided submission")}`}
      </span>
    </span>
  );
}

/** "Approves 96% · reviews in about 5 h", what worker forums say of a requester (rule R21). */
export function buyerReputationText({ approval_rate, median_review_hours }: BuyerReputation): string {
  if (approval_rate === null) return "New buyer: no reviews in the last 90 days";
  const hours = median_review_hours ?? 0;
  const speed = hours < 1 ? "in under an hour" : `in about ${Math.round(hours)} h`;
  return `Approves ${approval_rate}% · reviews ${speed}`;
}

/** What a task requires of its workers ("Requires Silver · 90% approval"), or null. */
export function requirementText({ min_level, min_approval_rate }: Qualification): string | null {
  const parts = [
    ...(min_level !== "new" ? [`${LEVEL_NAMES[min_level]} level`] : []),
    ...(min_approval_rate > 0 ? [`${min_approval_rate}% approval`] : []),
  ];
  return parts.length > 0 ? `Requires ${parts.join(" · ")}` : null;
}
