import { SectionCard } from "../ui/SectionCard.tsx";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { Award } from "lucide-react";
import { LEVEL_NAMES, nextLevelNeeds, trustEndpoints, type WorkerReputation } from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { plural } from "../../lib/format.ts";
import { workQueriesRoot } from "../../lib/queryKeys.ts";

/** A worker's own reputation: under the work root, so a decision on their work refreshes it. */
export const workerReputationQuery = (workerId: string) =>
  queryOptions({
    queryKey: [...workQueriesRoot, "reputation", workerId],
    queryFn: () => call(trustEndpoints.getWorkerReputation, { params: { id: workerId } }),
  });

/** "Silver needs 36 more decided submissions and 90% approved or better (you have 92%)." */
export function nextLevelText(reputation: WorkerReputation): string {
  const next = nextLevelNeeds(reputation);
  if (!next) return "Gold is the top level: keep your approval rate at 95% or more to stay there.";
  const name = LEVEL_NAMES[next.level];
  const yours =
    reputation.approval_rate === null ? "you have none yet" : `you have ${reputation.approval_rate}%`;
  const rate = next.rate_met
    ? `keep ${next.rate}% approved or better (${yours})`
    : `${next.rate}% approved or better (${yours})`;
  if (next.more_decided === 0) return `${name} needs ${rate}.`;
  const more = plural(next.more_decided, "more decided submission");
  return `${name} needs ${more} and ${rate}.`;
}

/**
 * A worker's level, approval rate and what the next level needs (rule R21), on Worker home and
 * Profile. Some tasks ask for a level or a rate, so this is what opens more work.
 */
export function WorkerLevelCard({ workerId }: { workerId: string }) {
  const reputation = useQuery(workerReputationQuery(workerId));
  return (
    <SectionCard
      id="worker-level"
      heading={
        <>
          <Award className="size-5 text-primary" aria-hidden="true" />
          Your level
        </>
      }
      testId="worker-level"
    >
      {reputation.isPending ? (
        <div className="space-y-2" role="status" aria-busy="true" aria-label="Loading your level">
          <div className="skeleton h-6 w-40" />
          <div className="skeleton h-4 w-full" />
        </div>
      ) : reputation.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-2 text-sm">
          <span>Your level could not be loaded.</span>
          <button type="button" className="btn btn-sm min-h-11" onClick={() => void reputation.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <LevelFigures reputation={reputation.data} />
      )}
    </SectionCard>
  );
}

function LevelFigures({ reputation }: { reputation: WorkerReputation }) {
  const next = nextLevelNeeds(reputation);
  const towards = next ? Math.min(reputation.decided, next.decided) : 1;
  return (
    <>
      <dl className="grid grid-cols-2 gap-3">
        <div>
          <dt className="text-sm text-base-content/70">Level</dt>
          <dd className="text-2xl font-bold">{LEVEL_NAMES[reputation.level]}</dd>
        </div>
        <div>
          <dt className="text-sm text-base-content/70">Approval rate</dt>
          <dd className="text-2xl font-bold">
            {reputation.approval_rate === null ? "None yet" : `${reputation.approval_rate}%`}
          </dd>
          <dd className="text-sm text-base-content/70">
            {reputation.decided === 0
              ? "Counted once a buyer decides on your work"
              : `of ${plural(reputation.decided, "decided submission")}`}
          </dd>
        </div>
      </dl>
      {next && (
        <progress
          className="progress progress-primary h-1.5 w-full"
          value={towards}
          max={next.decided}
          aria-label={`Decided submissions towards ${LEVEL_NAMES[next.level]}`}
        />
      )}
      <p className="text-sm text-base-content/80">{nextLevelText(reputation)}</p>
    </>
  );
}
