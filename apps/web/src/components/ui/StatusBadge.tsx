const STYLE: Record<string, string> = {
  approved: "badge-success",
  completed: "badge-success",
  pending: "badge-warning",
  open: "badge-info",
};

/** Status colours: success, warning, and error for anything else (the spec's rule). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge capitalize ${STYLE[status] ?? "badge-error"}`}>{status}</span>;
}
