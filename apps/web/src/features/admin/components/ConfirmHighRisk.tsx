import type { ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

/** Decisions 017 and 026: paying out despite a high risk needs this box ticked, in words that name whom. */
export function ConfirmHighRisk({ field, children }: { field: UseFormRegisterReturn; children: ReactNode }) {
  return (
    <label className="mt-2 flex items-start gap-2 text-sm" htmlFor="confirm-high-risk">
      <input id="confirm-high-risk" type="checkbox" className="checkbox checkbox-sm mt-0.5" {...field} />
      <span>{children}</span>
    </label>
  );
}
