import { useQuery } from "@tanstack/react-query";
import { Avatar } from "../../../components/ui/Avatar.tsx";
import { coinCount } from "../../../lib/format.ts";
import { topWorkersQuery } from "../topWorkersQuery.ts";

// Gold, silver and bronze for the first three; the rest plain.
const RANK_STYLE = [
  "bg-yellow-400 text-yellow-950",
  "bg-slate-300 text-slate-900",
  "bg-orange-400 text-orange-950",
];

/**
 * The six workers with the most coins, in the order received; nothing shown if the request fails
 * or no one has earned yet. Each is one short row (rank, photo or initials, name, coins, level),
 * one width wherever it is and centred, so one person reads as a leaderboard as well as six.
 */
export function TopPerformers() {
  const top = useQuery(topWorkersQuery());
  if (top.isError) console.error("Failed to load the top workers", top.error);
  const workers = top.data ?? [];
  if (workers.length === 0) return null;
  return (
    <section className="bg-base-200" aria-labelledby="top-performers-title">
      <div className="mx-auto max-w-5xl px-4 py-10 sm:py-16">
        <h2 id="top-performers-title" className="text-center text-2xl font-bold sm:text-4xl">
          Our top performers
        </h2>
        <p className="mt-2 text-center text-base-content/70">The workers with the most coins right now.</p>
        <ol className="mt-6 flex flex-wrap justify-center gap-3 sm:mt-10" data-testid="top-performers">
          {workers.map((worker, index) => (
            <li key={worker.id} className="card w-full bg-base-100 shadow-sm ring-1 ring-base-300 sm:w-72">
              <div className="flex items-center gap-3 p-3">
                <span
                  className={`flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${RANK_STYLE[index] ?? "bg-base-200 text-base-content"}`}
                  data-testid="rank"
                >
                  #{index + 1}
                </span>
                <Avatar photo={worker.photo} name={worker.name} size="size-12" loading="lazy" />
                <div className="min-w-0 flex-1">
                  <h3 className="truncate font-semibold" title={worker.name}>
                    {worker.name}
                  </h3>
                  <p className="text-sm text-base-content/80">{coinCount(worker.coins)}</p>
                  {/* Level and approval rate (rule R21), "Gold · 98% approved"; the level capitalised by
                      CSS, as LEVEL_NAMES would bring trust.ts into Home's first script. */}
                  <p className="text-xs text-base-content/70">
                    <span className="capitalize">{worker.reputation.level}</span>
                    {worker.reputation.approval_rate !== null &&
                      ` · ${worker.reputation.approval_rate}% approved`}
                  </p>
                </div>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
