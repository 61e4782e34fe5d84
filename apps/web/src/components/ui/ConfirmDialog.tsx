import { useId } from "react";
import { Dialog } from "./Dialog.tsx";
import { ButtonSpinner } from "./Spinner.tsx";

/**
 * Asks before the deletion of useConfirmedDeletion (one that needs no more than a yes), naming
 * what goes and what comes back ("Delete 'Rate 5 logos'?", "12 coins return to your balance").
 */
export function ConfirmDialog<Item>({
  deletion,
  title,
  message,
  confirmLabel = () => "Yes, delete it",
}: {
  deletion: { item: Item | null; busy: boolean; confirm: () => Promise<void>; cancel: () => void };
  title: (item: Item) => string;
  message: (item: Item) => string;
  /** The button that goes ahead: a deletion's by default. */
  confirmLabel?: (item: Item) => string;
}) {
  const { item, busy, cancel: onCancel } = deletion;
  // A page may hold several (the Developer page's keys and webhooks): each names its own dialog.
  const id = useId();
  return (
    <Dialog
      open={deletion.item !== null}
      onClose={onCancel}
      alert
      labelledBy={`${id}-title`}
      describedBy={`${id}-message`}
    >
      <div className="modal-box">
        <h2 id={`${id}-title`} className="text-lg font-bold">
          {item !== null && title(item)}
        </h2>
        <p id={`${id}-message`} className="py-3">
          {item !== null && message(item)}
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
            {item !== null && confirmLabel(item)}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
