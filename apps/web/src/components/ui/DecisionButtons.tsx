import { ButtonSpinner } from "./Spinner.tsx";

/** Reject and Approve, for a submission or a withdrawal waiting for a decision. */
export function DecisionButtons({
  busy,
  onReject,
  onApprove,
  small = false,
}: {
  busy: boolean;
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
        disabled={busy}
      >
        Reject
      </button>
      <button type="button" className={`btn btn-success ${size}`} onClick={onApprove} disabled={busy}>
        {busy && <ButtonSpinner />}
        Approve
      </button>
    </>
  );
}
