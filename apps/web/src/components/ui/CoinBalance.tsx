import { Coins } from "lucide-react";
import { formatCoins } from "../../lib/format.ts";

export function CoinBalance({ coins }: { coins: number }) {
  return (
    <span
      className="badge badge-accent gap-1 font-semibold"
      data-testid="coin-balance"
      aria-label={`${coins} coins`}
    >
      <Coins className="size-4" aria-hidden="true" />
      {formatCoins(coins)}
    </span>
  );
}
