import { ChevronDown, X } from "lucide-react";
import { useState, type ReactNode } from "react";

const TONES = {
  warning: "alert-warning",
  info: "alert-info",
} as const;

const dismissedKey = (id: string) => `notice-dismissed:${id}`;
const wasDismissed = (id: string) => {
  try {
    return sessionStorage.getItem(dismissedKey(id)) === "1";
  } catch {
    return false;
  }
};

/**
 * A page notice: on wide screens the whole message with its action; on phones one line (the
 * icon and the title) that opens to the rest, so notices never push the page below the fold.
 * `dismissible` notices close with ×, for the rest of this browser session; a notice that
 * explains why an action is locked stays.
 */
export function Notice({
  id,
  icon,
  title,
  children,
  tone = "warning",
  dismissible = false,
}: {
  /** Names the notice: its dismissal is remembered under it, and tests find it by it. */
  id: string;
  icon: ReactNode;
  /** One short sentence: all a phone shows until the notice is opened. */
  title: ReactNode;
  /** The rest: the explanation and the way out. */
  children?: ReactNode;
  tone?: keyof typeof TONES;
  dismissible?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [dismissed, setDismissed] = useState(() => dismissible && wasDismissed(id));
  if (dismissed) return null;
  const dismiss = () => {
    try {
      sessionStorage.setItem(dismissedKey(id), "1");
    } catch {
      // Private windows may refuse storage: the notice closes for this page view only.
    }
    setDismissed(true);
  };
  const bodyId = `${id}-body`;
  return (
    <div
      role="note"
      id={id}
      data-testid={id}
      className={`alert ${TONES[tone]} mb-4 flex items-start gap-3 px-3 py-2 text-start sm:px-4 sm:py-3`}
    >
      <span className="mt-3 shrink-0 sm:mt-0.5 [&>svg]:size-5">{icon}</span>
      <div className="min-w-0 flex-1">
        {/* Phones: the title is a button that opens the rest. */}
        {!children && <p className="flex min-h-11 items-center font-medium sm:hidden">{title}</p>}
        <button
          hidden={!children}
          type="button"
          className="flex min-h-11 w-full items-center gap-2 text-start font-medium sm:hidden"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((shown) => !shown)}
        >
          <span className="min-w-0 flex-1 truncate">{title}</span>
          <ChevronDown
            aria-hidden="true"
            className={`size-4 shrink-0 transition-transform ${open ? "rotate-180" : ""}`}
          />
        </button>
        <p className="hidden font-medium sm:block">{title}</p>
        {children && (
          <div id={bodyId} className={`mt-1 min-w-0 break-words text-sm ${open ? "" : "hidden"} sm:block`}>
            {children}
          </div>
        )}
      </div>
      {dismissible ? (
        <button
          type="button"
          className="btn btn-ghost btn-square btn-sm min-h-11 min-w-11 shrink-0"
          aria-label="Dismiss this notice"
          onClick={dismiss}
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      ) : null}
    </div>
  );
}
