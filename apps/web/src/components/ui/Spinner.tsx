export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="flex min-h-40 items-center justify-center" role="status">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** The spinner of a button whose action is running. */
export function ButtonSpinner() {
  return <span className="loading loading-spinner loading-sm" aria-hidden="true" />;
}
