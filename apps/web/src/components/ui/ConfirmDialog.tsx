import { Dialog } from "./Dialog.tsx";
import { ButtonSpinner } from "./Spinner.tsx";

/** Asks before the deletion of useConfirmedDeletion (one that needs no more than a yes). */
export function ConfirmDialog({
  deletion,
  message,
}: {
  deletion: { item: unknown; busy: boolean; confirm: () => Promise<void>; cancel: () => void };
  message: string;
}) {
  const { busy, cancel: onCancel } = deletion;
  return (
    <Dialog
      open={deletion.item !== null}
      onClose={onCancel}
      alert
      labelledBy="confirm-title"
      describedBy="confirm-message"
    >
      <div className="modal-box">
        <h2 id="confirm-title" className="text-lg font-bold">
          Are you sure?
        </h2>
        <p id="confirm-message" className="py-3">
          {message}
        </p>
        <div className="modal-action">
          <button type="button" className="btn" onClick={onCancel} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-error"
            onClick={() => void deletion.confirm()}
            disabled={busy}
          >
            {busy && <ButtonSpinner />}
            Yes, delete it
          </button>
        </div>
      </div>
    </Dialog>
  );
}
