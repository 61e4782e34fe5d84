import { DataTable } from "../../../components/ui/DataTable.tsx";
import { useState, type ChangeEvent } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "react-toastify";
import {
  MIN_WITHDRAWAL_COINS,
  PAYMENT_SYSTEMS,
  withdrawalDollars,
  withdrawalRequestSchema,
  type Withdrawal,
  type WithdrawalRequest,
} from "@taskmint/shared";
import { Field, FieldFrame, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormCard } from "../../../components/form/FormCard.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { Modal } from "../../../components/ui/Modal.tsx";
import { ButtonSpinner } from "../../../components/ui/Spinner.tsx";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { coinCount, formatCoins, formatDollars } from "../../../lib/format.ts";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { useCancelWithdrawal, useRequestWithdrawal } from "../api.ts";
import { WithdrawalTimeline } from "../components/WithdrawalTimeline.tsx";
import { WithdrawalCells } from "../../../components/withdrawals/WithdrawalCells.tsx";
import { coinQueries } from "../queries.ts";

/** How far the balance is from the minimum withdrawal, as a bar and in words. */
function MinimumProgress({ balance }: { balance: number }) {
  const reached = balance >= MIN_WITHDRAWAL_COINS;
  const shown = Math.min(balance, MIN_WITHDRAWAL_COINS);
  return (
    <div className="rounded-box bg-base-200 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p id="minimum-progress-label" className="font-semibold">
          {formatCoins(shown)} of {coinCount(MIN_WITHDRAWAL_COINS)}
        </p>
        <p className="text-sm text-base-content/70">
          {reached
            ? "You have reached the minimum withdrawal."
            : `${coinCount(MIN_WITHDRAWAL_COINS - balance)} more to reach the minimum withdrawal.`}
        </p>
      </div>
      <progress
        className={`progress mt-2 w-full ${reached ? "progress-success" : "progress-primary"}`}
        value={shown}
        max={MIN_WITHDRAWAL_COINS}
        aria-labelledby="minimum-progress-label"
      />
    </div>
  );
}

/** The last look before a withdrawal is sent: what, where, and what happens next. */
function ConfirmWithdrawal({
  request,
  busy,
  onConfirm,
  onCancel,
}: {
  request: WithdrawalRequest;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      open
      title="Confirm your withdrawal"
      onClose={onCancel}
      actions={
        <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={busy}>
          {busy && <ButtonSpinner />}
          Send request
        </button>
      }
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="font-semibold">Amount</dt>
        <dd>
          {coinCount(request.withdrawal_coin)} = {formatDollars(withdrawalDollars(request.withdrawal_coin))}
        </dd>
        <dt className="font-semibold">Method</dt>
        <dd>{request.payment_system}</dd>
        <dt className="font-semibold">
          {request.payment_system === "PayPal" ? "PayPal email" : "Account number"}
        </dt>
        <dd className="break-all">{request.account_number}</dd>
      </dl>
      <p className="mt-4 rounded-box bg-base-200 p-3 text-sm">
        What happens next: the {coinCount(request.withdrawal_coin)} leave your balance now and are held while
        an admin reviews your request. Once it is approved, the money is sent to this account. If it is
        rejected, the coins come back to your balance with the reason.
      </p>
    </Modal>
  );
}

function WithdrawalForm({ balance }: { balance: number }) {
  const request = useRequestWithdrawal();
  const form = useZodForm(withdrawalRequestSchema, { account_number: "" });
  const [coins, system] = useWatch({ control: form.control, name: ["withdrawal_coin", "payment_system"] });
  // A valid request waits here for the worker's confirmation before it is sent.
  const [confirming, setConfirming] = useState<WithdrawalRequest | null>(null);

  const send = (values: WithdrawalRequest) =>
    request.mutate(values, {
      onSuccess: () => {
        toast.success("Withdrawal request submitted successfully");
        setConfirming(null);
        form.reset();
      },
      onError: (error) => {
        setConfirming(null);
        // One feedback: the fields' own messages when the server named fields, else a toast.
        if (error instanceof ApiError && error.code === "VALIDATION" && error.details)
          for (const [field, message] of Object.entries(error.details))
            form.setError(field as keyof WithdrawalRequest, { message });
        else toast.error(errorMessage(error, "Failed to submit withdrawal request"));
      },
    });

  return (
    <FormCard form={form} onSubmit={setConfirming}>
      <p>
        Your balance: <strong>{coinCount(balance)}</strong> (= {formatDollars(withdrawalDollars(balance))})
      </p>
      <MinimumProgress balance={balance} />
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
        <FieldFrame id="withdraw-amount" label="Amount in dollars">
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
          Insufficient coins. Minimum required: {coinCount(MIN_WITHDRAWAL_COINS)}
        </div>
      ) : (
        <SubmitButton className="btn btn-primary mt-2">Withdraw</SubmitButton>
      )}
      {confirming && (
        <ConfirmWithdrawal
          request={confirming}
          busy={request.isPending}
          onConfirm={() => send(confirming)}
          onCancel={() => setConfirming(null)}
        />
      )}
    </FormCard>
  );
}

const withdrawalTitle = (withdrawal: Withdrawal) =>
  `${coinCount(withdrawal.withdrawal_coin)} (${formatDollars(withdrawal.withdrawal_amount)})`;

export function WithdrawalsPage() {
  const { data: user } = useMe();
  const cancellation = useConfirmedDeletion(useCancelWithdrawal(), {
    variables: (withdrawal: Withdrawal) => withdrawal,
    success: (_result, withdrawal) =>
      `Withdrawal cancelled: ${coinCount(withdrawal.withdrawal_coin)} are back in your balance`,
    failure: "Failed to cancel the withdrawal",
  });
  return (
    <Page title="Withdrawals" className="mx-auto max-w-4xl">
      {user ? <WithdrawalForm balance={user.coins} /> : <Spinner />}
      <h2 className="mb-3 mt-8 text-xl font-bold">Your withdrawals</h2>
      <PagedList
        pages={coinQueries.myWithdrawals}
        errorMessage="Failed to load your withdrawals"
        empty="You have not requested a withdrawal yet."
      >
        {(items) => (
          <DataTable numeric={["Coins", "Amount"]} headers={["Progress", "Coins", "Amount", "Paid to", ""]}>
            {items.map((withdrawal) => (
              <tr key={withdrawal.id}>
                <td>
                  <WithdrawalTimeline withdrawal={withdrawal} />
                </td>
                <WithdrawalCells withdrawal={withdrawal} />
                <td>
                  {withdrawal.status === "pending" && (
                    <button
                      type="button"
                      className="btn btn-sm"
                      onClick={() => cancellation.ask(withdrawal)}
                      aria-label={`Cancel the withdrawal of ${withdrawalTitle(withdrawal)}`}
                    >
                      Cancel
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      <ConfirmDialog
        deletion={cancellation}
        title={(withdrawal) => `Cancel your withdrawal of ${withdrawalTitle(withdrawal)}?`}
        message={(withdrawal) =>
          `${coinCount(withdrawal.withdrawal_coin)} return to your balance at once, and nothing is paid to ${withdrawal.payment_system} ${withdrawal.account_number}. You can ask again at any time.`
        }
        confirmLabel={() => "Yes, cancel it"}
      />
    </Page>
  );
}
