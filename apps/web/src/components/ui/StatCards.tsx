import type { UseQueryResult } from "@tanstack/react-query";
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { ErrorState } from "./States.tsx";

/** One number of a home page's stats, read from the stats answer. */
export interface Stat<Data> {
  label: string;
  icon: LucideIcon;
  value: (data: Data) => ReactNode;
}

/** A home page's stat cards: "…" until the numbers arrive, an error with retry if they fail. */
export function StatCards<Data>({
  query,
  errorMessage,
  stats,
}: {
  query: UseQueryResult<Data>;
  errorMessage: string;
  stats: Stat<Data>[];
}) {
  if (query.isError) return <ErrorState message={errorMessage} onRetry={() => void query.refetch()} />;
  const { data } = query;
  return (
    <div className={`grid gap-4 ${stats.length === 4 ? "sm:grid-cols-2 xl:grid-cols-4" : "sm:grid-cols-3"}`}>
      {stats.map(({ label, icon: Icon, value }) => (
        <div key={label} className="stat rounded-box bg-base-100 shadow-sm">
          <div className="stat-figure text-primary">
            <Icon aria-hidden="true" />
          </div>
          <div className="stat-title">{label}</div>
          <div className="stat-value text-2xl sm:text-3xl">{data === undefined ? "…" : value(data)}</div>
        </div>
      ))}
    </div>
  );
}
