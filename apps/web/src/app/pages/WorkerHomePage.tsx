import { useQuery } from "@tanstack/react-query";
import { Clock, Coins, Send } from "lucide-react";
import type { WorkerStats } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { WorkerLevelCard } from "../../components/trust/WorkerLevelCard.tsx";
import { Page } from "../../components/ui/Page.tsx";
import { PagedList } from "../../components/ui/PagedList.tsx";
import { StatCards, type Stat } from "../../components/ui/StatCards.tsx";
import { coinCount } from "../../lib/format.ts";
import { useMe } from "../../lib/auth.ts";
import { taskQueries } from "../../features/tasks/queries.ts";
import { SubmissionsTable } from "./SubmissionsTable.tsx";
import { WorkerFirstSteps } from "./WorkerFirstSteps.tsx";

const STATS: Stat<WorkerStats>[] = [
  { label: "Total submissions", icon: Send, value: (stats) => stats.total_submissions },
  { label: "Pending submissions", icon: Clock, value: (stats) => stats.pending_submissions },
  { label: "Total earnings", icon: Coins, value: (stats) => coinCount(stats.total_earnings) },
];

export function WorkerHomePage() {
  const stats = useQuery(taskQueries.workerStats());
  const { data: user } = useMe();
  // A worker with nothing submitted yet sees how to start, not a row of zeros.
  const isNew = stats.data?.total_submissions === 0;
  return (
    <Page title="Worker home">
      {!isNew && <StatCards query={stats} errorMessage="Failed to load dashboard data" stats={STATS} />}
      <div className={`grid gap-4 lg:grid-cols-2 ${isNew ? "" : "mt-4"}`}>
        {isNew && <WorkerFirstSteps />}
        {user && <WorkerLevelCard workerId={user.id} />}
      </div>
      {!isNew && (
        <>
          <h2 className="mb-3 mt-8 text-xl font-bold">Approved submissions</h2>
          <PagedList
            pages={(page) => taskQueries.workerSubmissions(page, "approved")}
            errorMessage="Failed to load your submissions"
            empty={{
              title: "No approved submissions yet.",
              link: { to: paths.dashboard.taskList, label: "Find a task" },
            }}
          >
            {(items) => <SubmissionsTable submissions={items} />}
          </PagedList>
        </>
      )}
    </Page>
  );
}
