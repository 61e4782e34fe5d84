import { DataTable } from "../../../components/ui/DataTable.tsx";
import { type ChangeEvent } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "react-toastify";
import {
  MIN_WITHDRAWAL_COINS,
  PAYMENT_SYSTEMS,
  withdrawalDollars,
  withdrawalRequestSchema,
  type WithdrawalRequest,
} from "@taskmint/shared";
import { Field, FieldFrame, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormCard } from "../../../components/form/FormCard.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { StatusBadge } from "../../../components/ui/StatusBadge.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { formatCoins, formatDate, formatDollars } from "../../../lib/format.ts";
import { useRequestWithdrawal } from "../api.ts";
import { WithdrawalCells } from "../components/WithdrawalCells.tsx";
import { coinQueries } from "../queries.ts";

function WithdrawalForm({ balance }: { balance: number }) {
  const request = useRequestWithdrawal();
  const form = useZodForm(withdrawalRequestSchema, { account_number: "" });
  const [coins, system] = useWatch({ control: form.control, name: ["withdrawal_coin", "payment_system"] });

  const onSubmit = async (values: WithdrawalRequest) => {
    await request.mutateAsync(values);
    toast.success("Withdrawal request submitted successfully");
    form.reset();
  };

  return (
    <FormCard
      form={form}
      onSubmit={onSubmit}
      onError={(error) => toast.error(errorMessage(error, "Failed to submit withdrawal request"))}
    >
      <p>
        Your balance: <strong>{formatCoins(balance)} coins</strong> (={" "}
        {formatDollars(withdrawalDollars(balance))})
      </p>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          name="withdrawal_coin"
          id="withdraw-coins"
          label="Coins to withdraw"
          type="number"
          min={MIN_WITHDRAWAL_COINS}
          max={balance}
          step={1}
          rules={{
            // The spec: the entered coins are capped at the balance.
            onChange: (event: ChangeEvent<HTMLInputElement>) => {
              const { value } = event.target;
              if (value !== "")
                form.setValue(
                  "withdrawal_coin",
                  Math.min(Math.max(0, Math.floor(Number(value) || 0)), balance),
                );
            },
          }}
        />
        <FieldFrame id="withdraw-amount" label="Withdraw amount ($)">
          <input
            id="withdraw-amount"
            className="input w-full"
            readOnly
            value={withdrawalDollars(Number(coins) || 0).toFixed(2)}
          />
        </FieldFrame>
        <Field as="select" name="payment_system" id="withdraw-system" label="Payment system" defaultValue="">
          <option value="" disabled>
            Select a payment system
          </option>
          {PAYMENT_SYSTEMS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Field>
        <Field
          name="account_number"
          id="withdraw-account"
          label="Account number"
          placeholder={system === "PayPal" ? "you@example.com" : "01XXXXXXXXX"}
        />
      </div>
      {balance < MIN_WITHDRAWAL_COINS ? (
        <div role="alert" className="alert alert-warning mt-2">
          Insufficient coins. Minimum required: {MIN_WITHDRAWAL_COINS} coins
        </div>
      ) : (
        <SubmitButton className="btn btn-primary mt-2">Withdraw</SubmitButton>
      )}
    </FormCard>
  );
}

export function WithdrawalsPage() {
  const { data: user } = useMe();
  return (
    <Page title="Withdrawals" className="mx-auto max-w-4xl">
      {user ? <WithdrawalForm balance={user.coins} /> : <Spinner />}
      <h2 className="mb-3 mt-8 text-xl font-bold">Your withdrawals</h2>
      <PagedList
        pages={coinQueries.myWithdrawals}
        errorMessage="Failed to load your withdrawals"
        empty="No withdrawals yet."
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
                <WithdrawalCells withdrawal={withdrawal} />
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
    </Page>
  );
}
