import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { useState } from "react";
import { toast } from "react-toastify";
import {
  MIN_WITHDRAWAL_COINS,
  PAYMENT_SYSTEMS,
  withdrawalDollars,
  withdrawalRequestSchema,
  type PaymentSystem,
} from "@taskmint/shared";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { EmptyState } from "../../../components/ui/States.tsx";
import { StatusBadge } from "../../../components/ui/StatusBadge.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { formatCoins, formatDate, formatDollars } from "../../../lib/format.ts";
import { useRequestWithdrawal } from "../api.ts";
import { coinQueries } from "../queries.ts";

function WithdrawalForm({ balance }: { balance: number }) {
  const request = useRequestWithdrawal();
  const [coins, setCoins] = useState("");
  const [system, setSystem] = useState<PaymentSystem | "">("");
  const [account, setAccount] = useState("");
  const [error, setError] = useState<string | null>(null);
  const coinCount = Number(coins) || 0;
  const ready = coins !== "" && system !== "" && account.trim() !== "";

  // The spec: the entered coins are capped at the balance.
  const onCoins = (value: string) =>
    setCoins(value === "" ? "" : String(Math.min(Math.max(0, Math.floor(Number(value) || 0)), balance)));

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = withdrawalRequestSchema.safeParse({
      withdrawal_coin: coinCount,
      payment_system: system,
      account_number: account,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Check the form");
      return;
    }
    setError(null);
    request.mutate(parsed.data, {
      onSuccess: () => {
        toast.success("Withdrawal request submitted successfully");
        setCoins("");
        setAccount("");
        setSystem("");
      },
      onError: (failure) => toast.error(errorMessage(failure, "Failed to submit withdrawal request")),
    });
  };

  return (
    <form className="card bg-base-100 shadow-sm" onSubmit={onSubmit} noValidate>
      <div className="card-body">
        <p>
          Your balance: <strong>{formatCoins(balance)} coins</strong> (={" "}
          {formatDollars(withdrawalDollars(balance))})
        </p>
        <div className="grid gap-x-4 sm:grid-cols-2">
          <div className="fieldset">
            <label htmlFor="withdraw-coins" className="fieldset-legend">
              Coins to withdraw
            </label>
            <input
              id="withdraw-coins"
              type="number"
              min={MIN_WITHDRAWAL_COINS}
              max={balance}
              step={1}
              className="input w-full"
              value={coins}
              onChange={(event) => onCoins(event.target.value)}
            />
          </div>
          <div className="fieldset">
            <label htmlFor="withdraw-amount" className="fieldset-legend">
              Withdraw amount ($)
            </label>
            <input
              id="withdraw-amount"
              className="input w-full"
              readOnly
              value={withdrawalDollars(coinCount).toFixed(2)}
            />
          </div>
          <div className="fieldset">
            <label htmlFor="withdraw-system" className="fieldset-legend">
              Payment system
            </label>
            <select
              id="withdraw-system"
              className="select w-full"
              value={system}
              onChange={(event) => setSystem(event.target.value as PaymentSystem)}
            >
              <option value="" disabled>
                Select a payment system
              </option>
              {PAYMENT_SYSTEMS.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <div className="fieldset">
            <label htmlFor="withdraw-account" className="fieldset-legend">
              Account number
            </label>
            <input
              id="withdraw-account"
              className="input w-full"
              placeholder={system === "PayPal" ? "you@example.com" : "01XXXXXXXXX"}
              value={account}
              onChange={(event) => setAccount(event.target.value)}
            />
          </div>
        </div>
        {error && (
          <p role="alert" className="text-sm text-error">
            {error}
          </p>
        )}
        {balance < MIN_WITHDRAWAL_COINS ? (
          <div role="alert" className="alert alert-warning mt-2">
            Insufficient coins. Minimum required: {MIN_WITHDRAWAL_COINS} coins
          </div>
        ) : (
          <button type="submit" className="btn btn-primary mt-2" disabled={!ready || request.isPending}>
            {request.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            Withdraw
          </button>
        )}
      </div>
    </form>
  );
}

export function WithdrawalsPage() {
  const { data: user } = useMe();
  const [page, setPage] = useState(1);
  const history = useQuery(coinQueries.myWithdrawals(page));
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Withdrawals" />
      {user ? <WithdrawalForm balance={user.coins} /> : <Spinner />}
      <h2 className="mb-3 mt-8 text-xl font-bold">Your withdrawals</h2>
      <PagedList
        query={history}
        errorMessage="Failed to load your withdrawals"
        empty={<EmptyState title="No withdrawals yet." />}
        onPage={setPage}
      >
        {(items) => (
          <DataTable headers={["Date", "Status", "Coins", "Amount", "Paid to"]}>
            {items.map((withdrawal) => (
              <tr key={withdrawal.id}>
                <td className="whitespace-nowrap">{formatDate(withdrawal.withdraw_date)}</td>
                <td>
                  <StatusBadge status={withdrawal.status} />
                  {withdrawal.reason && (
                    <p className="mt-1 max-w-xs text-xs text-error">Reason: {withdrawal.reason}</p>
                  )}
                </td>
                <td>{formatCoins(withdrawal.withdrawal_coin)}</td>
                <td>{formatDollars(withdrawal.withdrawal_amount)}</td>
                <td className="whitespace-nowrap">
                  {withdrawal.payment_system} · {withdrawal.account_number}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
    </div>
  );
}
