import { useEffect, useRef, useState } from "react";
import type { AdminUser, DeleteUserRequest, DeletedAccountCoins } from "@taskmint/shared";
import { formatCoins } from "../../../lib/format.ts";

const OUTCOME: Record<DeletedAccountCoins, string> = {
  forfeit: "forfeited to the platform",
  payout: "recorded as paid out to them",
};

/** Asks before deleting a user, and what happens to their coins (rule R12, decision 010). */
export function DeleteUserDialog({
  user,
  busy,
  onConfirm,
  onCancel,
}: {
  user: AdminUser | null;
  busy: boolean;
  onConfirm: (choice: DeleteUserRequest) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [coins, setCoins] = useState<DeletedAccountCoins>("forfeit");
  const [reference, setReference] = useState("");
  const [referenceMissing, setReferenceMissing] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (user && element && !element.open) {
      setCoins("forfeit");
      setReference("");
      setReferenceMissing(false);
      element.showModal();
    }
    if (!user && element?.open) element.close();
  }, [user]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (coins === "forfeit") return onConfirm({ coins });
    if (!reference.trim()) return setReferenceMissing(true);
    onConfirm({ coins, payout_reference: reference.trim() });
  };

  const name = user?.name ?? "this user";
  const balance = formatCoins(user?.coins ?? 0);
  return (
    <dialog
      ref={dialog}
      className="modal"
      onClose={onCancel}
      role="alertdialog"
      aria-labelledby="delete-user-title"
      aria-describedby="delete-user-summary"
    >
      <form className="modal-box" onSubmit={submit} noValidate>
        <h2 id="delete-user-title" className="text-lg font-bold">
          Delete {name}?
        </h2>
        <p className="py-2 text-sm">
          They will not be able to sign in. Their open tasks close with refunds, their pending withdrawals go
          back to their balance and their pending submissions are rejected. History is kept.
        </p>
        <fieldset className="fieldset">
          <legend className="fieldset-legend">
            What happens to {name}'s {balance} coins?
          </legend>
          <label className="label cursor-pointer gap-3 whitespace-normal text-base-content">
            <input
              type="radio"
              name="coins"
              className="radio radio-sm"
              checked={coins === "forfeit"}
              onChange={() => setCoins("forfeit")}
            />
            <span>
              <strong>Forfeit</strong>: they go back to the platform; no one is paid.
            </span>
          </label>
          <label className="label cursor-pointer gap-3 whitespace-normal text-base-content">
            <input
              type="radio"
              name="coins"
              className="radio radio-sm"
              checked={coins === "payout"}
              onChange={() => setCoins("payout")}
            />
            <span>
              <strong>Pay out</strong>: you pay them outside TaskMint and record the payment's reference.
            </span>
          </label>
          {coins === "payout" && (
            <>
              <label htmlFor="payout-reference" className="label mt-1 text-base-content">
                Payout reference
              </label>
              <input
                id="payout-reference"
                className="input w-full"
                maxLength={200}
                value={reference}
                aria-invalid={referenceMissing}
                aria-describedby={referenceMissing ? "payout-reference-error" : undefined}
                onChange={(event) => {
                  setReference(event.target.value);
                  setReferenceMissing(false);
                }}
              />
              {referenceMissing && (
                <p id="payout-reference-error" className="text-sm text-error">
                  A payout reference is required
                </p>
              )}
            </>
          )}
        </fieldset>
        <p id="delete-user-summary" className="mt-3 rounded-box bg-base-200 p-3 text-sm">
          {name}'s {balance} coins will be {OUTCOME[coins]}, with any refunds of their open tasks and pending
          withdrawals.
        </p>
        <div className="modal-action">
          <button type="button" className="btn" onClick={onCancel} autoFocus>
            Cancel
          </button>
          <button type="submit" className="btn btn-error" disabled={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            Delete user
          </button>
        </div>
      </form>
    </dialog>
  );
}
