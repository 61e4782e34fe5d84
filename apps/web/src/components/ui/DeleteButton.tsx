import { Trash2 } from "lucide-react";

/** A table row's delete button: an icon and the word (a phone's card footer shows no lone icon), named "Delete <what>" for screen readers. */
export function DeleteButton({
  what,
  onClick,
  disabledBecause,
}: {
  what: string;
  onClick: () => void;
  /** Why it cannot be used, if it cannot. */
  disabledBecause?: string;
}) {
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm text-error disabled:text-base-content/30"
      aria-label={`Delete ${what}`}
      disabled={Boolean(disabledBecause)}
      title={disabledBecause}
      onClick={onClick}
    >
      <Trash2 className="size-4" aria-hidden="true" />
      Delete
    </button>
  );
}
