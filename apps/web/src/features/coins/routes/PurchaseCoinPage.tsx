import { useQuery } from "@tanstack/react-query";
import { Coins } from "lucide-react";
import { useNavigate } from "react-router";
import type { CoinPackageOffer } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { coinCount, formatDollars } from "../../../lib/format.ts";
import { coinQueries } from "../queries.ts";

const perCoin = (pack: CoinPackageOffer) => pack.price / pack.coins;
/** "$0.035": a price per coin, to the tenth of a cent. */
const formatPerCoin = (dollars: number) =>
  dollars.toLocaleString("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: 3,
  });

export function PurchaseCoinPage() {
  const packages = useQuery(coinQueries.packages());
  const navigate = useNavigate();
  const cheapest =
    packages.data && packages.data.length > 1 ? Math.min(...packages.data.map(perCoin)) : undefined;
  return (
    <Page title="Purchase coins">
      {packages.isPending ? (
        <Spinner />
      ) : packages.isError ? (
        <ErrorState message="Failed to load the coin packages" onRetry={() => void packages.refetch()} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {packages.data.map((pack) => {
            const best = perCoin(pack) === cheapest;
            return (
              <article
                key={pack.id}
                className={`card relative bg-base-100 text-center shadow-sm ring-1 ${best ? "ring-2 ring-primary" : "ring-base-300"}`}
              >
                {best && (
                  <span className="badge badge-primary absolute -top-3 left-1/2 -translate-x-1/2">
                    Best value
                  </span>
                )}
                <div className="card-body items-center">
                  <Coins className="size-10 text-accent" aria-hidden="true" />
                  <h2 className="text-3xl font-bold">{coinCount(pack.coins)}</h2>
                  <p className="text-xl text-base-content/70">{formatDollars(pack.price)}</p>
                  <p className="text-sm text-base-content/70" data-testid="per-coin">
                    {formatPerCoin(perCoin(pack))} per coin
                  </p>
                  <button
                    type="button"
                    className="btn btn-primary mt-2 w-full"
                    aria-label={`Buy ${coinCount(pack.coins)} for ${formatDollars(pack.price)}${best ? ", best value" : ""}`}
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
            );
          })}
        </div>
      )}
    </Page>
  );
}
