import { useQuery } from "@tanstack/react-query";
import { Clock, Coins, Send } from "lucide-react";
import { useState } from "react";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { StatCard } from "../../../components/ui/StatCard.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { formatCoins } from "../../../lib/format.ts";
import { taskQueries } from "../queries.ts";
import { SubmissionsTable } from "../components/SubmissionsTable.tsx";

export function WorkerHomePage() {
  const stats = useQuery(taskQueries.workerStats());
  const [page, setPage] = useState(1);
  const approved = useQuery(taskQueries.workerSubmissions(page, "approved"));
  return (
    <div>
      <PageHeader title="Worker Home" />
      {stats.isError ? (
        <ErrorState message="Failed to load dashboard data" onRetry={() => void stats.refetch()} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-3">
          <StatCard
            label="Total submissions"
            value={stats.data?.total_submissions ?? "…"}
            icon={<Send aria-hidden="true" />}
          />
          <StatCard
            label="Pending submissions"
            value={stats.data?.pending_submissions ?? "…"}
            icon={<Clock aria-hidden="true" />}
          />
          <StatCard
            label="Total earnings"
            value={stats.data ? `${formatCoins(stats.data.total_earnings)} coins` : "…"}
            icon={<Coins aria-hidden="true" />}
          />
        </div>
      )}
      <h2 className="mb-3 mt-8 text-xl font-bold">Approved Submissions</h2>
      <PagedList
        query={approved}
        errorMessage="Failed to load your submissions"
        empty={<EmptyState title="No approved submissions yet." />}
        onPage={setPage}
      >
        {(items) => <SubmissionsTable submissions={items} />}
      </PagedList>
    </div>
  );
}
