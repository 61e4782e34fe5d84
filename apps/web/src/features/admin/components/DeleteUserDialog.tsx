import { useWatch } from "react-hook-form";
import {
  deleteUserSchema,
  type AdminUser,
  type DeletedAccountCoins,
  type DeleteUserRequest,
} from "@taskmint/shared";
import { Field, Form, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { Dialog } from "../../../components/ui/Dialog.tsx";
import { coinCount } from "../../../lib/format.ts";

const OUTCOME: Record<DeletedAccountCoins, string> = {
  forfeit: "forfeited to the platform",
  payout: "recorded as paid out to them",
};

/** Asks before deleting a user, and what happens to their coins (rule R12, decision 010). */
export function DeleteUserDialog({
  user,
  onConfirm,
  onCancel,
}: {
  user: AdminUser;
  onConfirm: (choice: DeleteUserRequest) => Promise<void>;
  onCancel: () => void;
}) {
  const form = useZodForm(deleteUserSchema, { coins: "forfeit" });
  const coins = useWatch({ control: form.control, name: "coins" });
  const balance = coinCount(user.coins);
  return (
    <Dialog open onClose={onCancel} alert labelledBy="delete-user-title" describedBy="delete-user-summary">
      <Form form={form} onSubmit={onConfirm} className="modal-box">
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
          {coins === "payout" && (
            // Unregistered when hidden: a forfeit carries no reference.
            <Field
              name="payout_reference"
              id="payout-reference"
              label="Payout reference"
              maxLength={200}
              rules={{ shouldUnregister: true }}
            />
          )}
        </fieldset>
        <p id="delete-user-summary" className="mt-3 rounded-box bg-base-200 p-3 text-sm">
          {user.name}'s {balance} will be {OUTCOME[coins]}, with any refunds of their open tasks and pending
          withdrawals.
        </p>
        <div className="modal-action">
          <button type="button" className="btn" onClick={onCancel} autoFocus>
            Cancel
          </button>
          <SubmitButton className="btn btn-error">Delete user</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
