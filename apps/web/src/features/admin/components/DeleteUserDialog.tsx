import { ConfirmHighRisk } from "./ConfirmHighRisk.tsx";
import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "react-toastify";
import {
  deleteUserSchema,
  type AdminUser,
  type DeletedAccountCoins,
  type DeleteUserRequest,
  type PayoutReview,
} from "@taskmint/shared";
import { Field, Form, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { Dialog } from "../../../components/ui/Dialog.tsx";
import { ButtonSpinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { coinCount } from "../../../lib/format.ts";
import { useDeleteUser } from "../api.ts";
import { adminQueries } from "../queries.ts";
import { RiskSummary } from "./RiskSummary.tsx";

const OUTCOME: Record<DeletedAccountCoins, string> = {
  forfeit: "forfeited to the platform",
  payout: "recorded as paid out to them",
};

/**
 * Asks before deleting a user, and what happens to their coins (rule R12, decision 010). Paying
 * them out gets a withdrawal's review first (rule R30): a confirmed address, the risk, and a
 * high risk confirmed a second time.
 */
export function DeleteUserDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const remove = useDeleteUser();
  const form = useZodForm(deleteUserSchema, { coins: "forfeit" });
  const coins = useWatch({ control: form.control, name: "coins" });
  const paying = coins === "payout";
  const review = useQuery({ ...adminQueries.payoutReview(user.id), enabled: paying });
  // The server may find a high risk the review did not show (facts newer than the review).
  const [mustConfirm, setMustConfirm] = useState(false);
  const unpayable = paying && review.data?.may_be_paid === false;
  const high = paying && !unpayable && (review.data?.risk.level === "high" || mustConfirm);
  const balance = coinCount(paying && review.data ? review.data.balance : user.coins);
  const submit = async (choice: DeleteUserRequest) => {
    let settled: number;
    try {
      settled = (await remove.mutateAsync({ id: user.id, choice })).settled_coins;
    } catch (error) {
      if (error instanceof ApiError && error.code === "RISK_CONFIRMATION_REQUIRED") setMustConfirm(true);
      // The review is read again, to show what the server judged on.
      if (
        error instanceof ApiError &&
        ["RISK_CONFIRMATION_REQUIRED", "EMAIL_NOT_VERIFIED"].includes(error.code)
      )
        void review.refetch();
      throw error;
    }
    toast.success(
      `${user.name} was deleted. ${coinCount(settled)} ${settled === 1 ? "was" : "were"} ${choice.coins === "forfeit" ? "forfeited to the platform" : "recorded as paid out"}.`,
    );
    onClose();
  };
  return (
    <Dialog open onClose={onClose} alert labelledBy="delete-user-title" describedBy="delete-user-summary">
      <Form form={form} onSubmit={submit} className="modal-box">
        <h2 id="delete-user-title" className="text-lg font-bold">
          Delete {user.name}?
        </h2>
        <p className="py-2 text-sm">
          They will not be able to sign in. Their open tasks close with refunds, their pending withdrawals go
          back to their balance and their pending submissions are rejected. History is kept.
        </p>
        <fieldset className="fieldset">
          <legend className="fieldset-legend">
            What happens to {user.name}'s {balance}?
          </legend>
          <label className="label cursor-pointer gap-3 whitespace-normal text-base-content">
            <input type="radio" value="forfeit" className="radio radio-sm" {...form.register("coins")} />
            <span>
              <strong>Forfeit</strong>: they go back to the platform; no one is paid.
            </span>
          </label>
          <label className="label cursor-pointer gap-3 whitespace-normal text-base-content">
            <input type="radio" value="payout" className="radio radio-sm" {...form.register("coins")} />
            <span>
              <strong>Pay out</strong>: you pay them outside TaskMint and record the payment's reference.
            </span>
          </label>
          {paying && <PayoutReviewPanel name={user.name} review={review} />}
          {paying && !unpayable && (
            // Unregistered when hidden: a forfeit carries no reference.
            <Field
              name="payout_reference"
              id="payout-reference"
              label="Payout reference"
              maxLength={200}
              autoComplete="off"
              rules={{ shouldUnregister: true }}
            />
          )}
          {high && (
            <ConfirmHighRisk field={form.register("confirm_high_risk", { shouldUnregister: true })}>
              I have checked the reasons above and want to pay {user.name} anyway.
            </ConfirmHighRisk>
          )}
        </fieldset>
        <p id="delete-user-summary" className="mt-3 rounded-box bg-base-200 p-3 text-sm">
          {user.name}'s {balance} will be {OUTCOME[coins]}, with any refunds of their open tasks and pending
          withdrawals.
        </p>
        <div className="mt-3">
          <FormError />
        </div>
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose} autoFocus>
            Cancel
          </button>
          <SubmitButton className="btn btn-error" disabled={paying && (!review.data || unpayable)}>
            {high ? "Delete and pay anyway" : "Delete user"}
          </SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}

/** What a payout on deletion is checked against, as a withdrawal is: the address, then the risk. */
function PayoutReviewPanel({ name, review }: { name: string; review: UseQueryResult<PayoutReview> }) {
  if (review.isPending)
    return (
      <p role="status" className="flex items-center gap-2 py-2 text-sm">
        <ButtonSpinner />
        Checking whether {name} may be paid…
      </p>
    );
  if (review.isError)
    return (
      <ErrorState
        message={errorMessage(review.error, "Could not check whether they may be paid")}
        onRetry={() => void review.refetch()}
      />
    );
  const { may_be_paid: mayBePaid, risk } = review.data;
  if (!mayBePaid)
    return (
      <div role="alert" className="alert alert-error text-sm">
        {name} has not confirmed their email address, so their coins cannot be paid out: forfeit them, or ask
        them to confirm it first.
      </div>
    );
  return (
    <div
      className={`alert items-start ${risk.level === "high" ? "alert-error" : risk.level === "medium" ? "alert-warning" : ""}`}
    >
      <RiskSummary risk={risk} />
    </div>
  );
}
