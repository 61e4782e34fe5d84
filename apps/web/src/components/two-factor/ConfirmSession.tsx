import { useId } from "react";
import { SecondFactorCode } from "./SecondFactorCode.tsx";

/**
 * Confirms the session already signed in with a second factor (rule R30): for a session that
 * began without one. Profile's Security section and the admin pages' notice both offer it.
 */
export function ConfirmSession() {
  const title = useId();
  return (
    <div role="group" aria-labelledby={title} className="flex w-full max-w-sm flex-col gap-1">
      <p id={title} className="font-semibold">
        Confirm with a code from your authenticator app
      </p>
      <SecondFactorCode purpose="session" />
    </div>
  );
}
