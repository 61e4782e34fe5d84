import { useQuery } from "@tanstack/react-query";
import { Coins } from "lucide-react";
import { useNavigate } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { formatCoins, formatDollars } from "../../../lib/format.ts";
import { coinQueries } from "../queries.ts";

export function PurchaseCoinPage() {
  const packages = useQuery(coinQueries.packages());
  const navigate = useNavigate();
  return (
    <Page title="Purchase coins">
      {packages.isPending ? (
        <Spinner />
      ) : packages.isError ? (
        <ErrorState message="Failed to load the coin packages" onRetry={() => void packages.refetch()} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {packages.data.map((pack) => (
            <article key={pack.id} className="card bg-base-100 text-center shadow-sm ring-1 ring-base-300">
              <div className="card-body items-center">
                <Coins className="size-10 text-accent" aria-hidden="true" />
                <h2 className="text-3xl font-bold">{formatCoins(pack.coins)} coins</h2>
                <p className="text-xl text-base-content/70">{formatDollars(pack.price)}</p>
                <button
                  type="button"
                  className="btn btn-primary mt-2 w-full"
                  aria-label={`Buy ${pack.coins} coins for ${formatDollars(pack.price)}`}
                  onClick={() =>
                    void navigate(paths.dashboard.paymentProcess, {
                      state: { packageId: pack.id, coins: pack.coins, amount: pack.price },
                    })
                  }
                >
                  Buy
                </button>
              </div>
            </article>
          ))}
        </div>
      )}
    </Page>
  );
}
