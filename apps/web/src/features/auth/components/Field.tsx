import type { ReactNode } from "react";

/** A labelled form control with its error message under it. */
export function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="fieldset">
      <label htmlFor={id} className="fieldset-legend">
        {label}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-sm text-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
