import { useId, useState } from "react";
import { toast } from "react-toastify";
import { SectionCard } from "../../../components/ui/SectionCard.tsx";
import { ButtonSpinner } from "../../../components/ui/Spinner.tsx";
import { pushFailure, type usePushDevice } from "../push.ts";

/** "Phone notifications on this device": a switch that subscribes this browser, or says why it cannot. */
export function PhoneNotificationsCard({ push }: { push: ReturnType<typeof usePushDevice> }) {
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const { state, turnOn, turnOff } = push;
  const busy = turnOn.isPending || turnOff.isPending;
  const toggle = (on: boolean) => {
    setProblem(null);
    (on ? turnOn : turnOff).mutate(undefined, {
      onSuccess: () =>
        toast.success(
          on ? "Phone notifications on for this device" : "Phone notifications off for this device",
        ),
      onError: (error) => setProblem(pushFailure(error)),
    });
  };
  return (
    <SectionCard id="phone" heading="Phone notifications">
      {state === "unsupported" ? (
        <p className="text-sm">
          This browser cannot show phone notifications. Open TaskMint in Chrome, Edge, Firefox or Safari (on
          an iPhone, add it to your Home Screen first) to get them; the bell and mail work everywhere.
        </p>
      ) : (
        <>
          <p className="text-sm text-base-content/70">
            A search set to Phone tells this device the moment a matching task is posted, even when TaskMint
            is closed.
          </p>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <label htmlFor={`${id}-switch`} className="font-medium">
              Phone notifications on this device
            </label>
            <span className="flex items-center gap-2">
              {(busy || state === undefined) && <ButtonSpinner />}
              <input
                id={`${id}-switch`}
                type="checkbox"
                role="switch"
                className="size-6 shrink-0 cursor-pointer accent-primary"
                checked={state === "on"}
                disabled={busy || state === undefined || state === "blocked"}
                aria-describedby={state === "blocked" ? `${id}-blocked` : undefined}
                onChange={(event) => toggle(event.target.checked)}
              />
            </span>
          </div>
          {state === "blocked" && (
            <p id={`${id}-blocked`} className="text-sm">
              Blocked in your browser settings. Allow notifications for this site there, then come back.
            </p>
          )}
          {problem && (
            <p className="text-sm text-error" role="alert">
              {problem}
            </p>
          )}
        </>
      )}
    </SectionCard>
  );
}
