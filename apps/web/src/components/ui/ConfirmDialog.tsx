import { ButtonSpinner } from "./Spinner.tsx";
import { useModalDialog } from "./useModalDialog.ts";

/** Asks before a destructive action. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useModalDialog(open);
  return (
    <dialog
      ref={dialog}
      className="modal"
      onClose={onCancel}
      role="alertdialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
    >
      <div className="modal-box">
        <h2 id="confirm-title" className="text-lg font-bold">
          {title}
        </h2>
        <p id="confirm-message" className="py-3">
          {message}
        </p>
        <div className="modal-action">
          <button type="button" className="btn" onClick={onCancel} autoFocus>
            Cancel
          </button>
          <button type="button" className="btn btn-error" onClick={onConfirm} disabled={busy}>
            {busy && <ButtonSpinner />}
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
