import type { Withdrawal } from "@taskmint/shared";
import { formatCoins, formatDollars } from "../../lib/format.ts";

/** A withdrawal's Coins, Amount and Pay to cells, as the worker's and the admin's tables show them. */
export function WithdrawalCells({ withdrawal }: { withdrawal: Withdrawal }) {
  return (
    <>
      <td>{formatCoins(withdrawal.withdrawal_coin)}</td>
      <td>{formatDollars(withdrawal.withdrawal_amount)}</td>
      <td className="whitespace-nowrap">
        {withdrawal.payment_system} · {withdrawal.account_number}
      </td>
    </>
  );
}
