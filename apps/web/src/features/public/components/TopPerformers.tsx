import { useQuery } from "@tanstack/react-query";
import { UserRound } from "lucide-react";
import { coinCount } from "../../../lib/format.ts";
import { publicQueries } from "../queries.ts";

const RANK_STYLE = [
  "bg-yellow-400 text-yellow-950",
  "bg-slate-300 text-slate-900",
  "bg-orange-400 text-orange-950",
];

/**
 * The six workers with the most coins, in the order received; nothing shown if the request fails
 * or no one has earned yet. Cards keep one width and rows are centred, so 1 to 6 look balanced.
 */
export function TopPerformers() {
  const top = useQuery(publicQueries.topWorkers());
  if (top.isError) console.error("Failed to load the top workers", top.error);
  const workers = top.data ?? [];
  if (workers.length === 0) return null;
  return (
    <section className="bg-base-200">
      <div className="mx-auto max-w-7xl px-4 py-16">
        <h2 className="text-center text-3xl font-bold sm:text-4xl">Our top performers</h2>
        <ul className="mt-10 flex flex-wrap justify-center gap-4" data-testid="top-performers">
          {workers.map((worker, index) => (
            <li
              key={worker.id}
              className="card w-full max-w-xs bg-base-100 shadow-sm sm:w-[calc((100%-1rem)/2)] md:w-[calc((100%-2rem)/3)] lg:w-[calc((100%-3rem)/4)] xl:w-[calc((100%-5rem)/6)]"
            >
              <div className="card-body items-center p-4 text-center">
                <div className="relative">
                  {worker.photo ? (
                    <img
                      src={worker.photo}
                      alt=""
                      loading="lazy"
                      className="size-20 rounded-full object-cover"
                    />
                  ) : (
                    <span className="flex size-20 items-center justify-center rounded-full bg-base-300">
                      <UserRound className="size-10 text-base-content/70" aria-hidden="true" />
                    </span>
                  )}
                  <span
                    className={`absolute -right-1 -top-1 flex size-8 items-center justify-center rounded-full text-sm font-bold ${RANK_STYLE[index] ?? "bg-primary text-primary-content"}`}
                    data-testid="rank"
                  >
                    #{index + 1}
                  </span>
                </div>
                <h3 className="mt-2 font-semibold">{worker.name}</h3>
                <p className="text-sm">{coinCount(worker.coins)}</p>
                {/* Their level and approval rate (rule R21): "Gold · 98% approved". */}
                <span className="badge badge-primary badge-sm">
                  <span className="capitalize">{worker.reputation.level}</span>
                  {worker.reputation.approval_rate !== null &&
                    ` · ${worker.reputation.approval_rate}% approved`}
                </span>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
