import { ButtonSpinner } from "./Spinner.tsx";

/** Reject and Approve, for a submission or a withdrawal waiting for a decision. */
export function DecisionButtons({
  busy = false,
  disabled = false,
  onReject,
  onApprove,
  small = false,
}: {
  /** A decision is being sent: both off, and a spinner on Approve. */
  busy?: boolean;
  /** Not for this user now (the page says why). */
  disabled?: boolean;
  onReject: () => void;
  onApprove: () => void;
  small?: boolean;
}) {
  const size = small ? "btn-sm" : "";
  return (
    <>
      <button
        type="button"
        className={`btn btn-outline btn-error ${size}`}
        onClick={onReject}
        disabled={busy || disabled}
      >
        Reject
      </button>
      <button
        type="button"
        className={`btn btn-success ${size}`}
        onClick={onApprove}
        disabled={busy || disabled}
      >
        {busy && <ButtonSpinner />}
        Approve
      </button>
    </>
  );
}
