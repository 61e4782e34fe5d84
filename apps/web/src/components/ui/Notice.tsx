import { ChevronDown, X } from "lucide-react";
import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from "react";

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

interface Shown {
  id: string;
  later: boolean;
}

interface NoticeGroupState {
  /** The notices shown now: the page's own first, then those shown on every page; each in the order they appeared. */
  shown: string[];
  expanded: boolean;
  toggle: () => void;
  register: (notice: Shown) => () => void;
}

const NoticeGroupContext = createContext<NoticeGroupState | null>(null);

/**
 * The notices of one page (the layout's and the page's own): on phones they collapse into one
 * line, the first notice's, with a "+1" that shows the others where they stand.
 */
export function NoticeGroup({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Shown[]>([]);
  const [expanded, setExpanded] = useState(false);
  const register = useCallback((notice: Shown) => {
    setNotices((list) => [...list, notice]);
    return () => setNotices((list) => list.filter((each) => each.id !== notice.id));
  }, []);
  const toggle = useCallback(() => setExpanded((open) => !open), []);
  const shown = useMemo(
    () =>
      [...notices.filter((notice) => !notice.later), ...notices.filter((notice) => notice.later)].map(
        (notice) => notice.id,
      ),
    [notices],
  );
  const group = useMemo(() => ({ shown, expanded, toggle, register }), [shown, expanded, toggle, register]);
  return <NoticeGroupContext value={group}>{children}</NoticeGroupContext>;
}

/** Where a notice stands in its page's group: whether phones hide it, and the others' count for the first. */
function useGroupPlace(id: string, later: boolean, dismissed: boolean, grouped: boolean) {
  const context = use(NoticeGroupContext);
  const group = grouped ? context : null;
  const register = group?.register;
  useEffect(
    () => (register && !dismissed ? register({ id, later }) : undefined),
    [register, id, later, dismissed],
  );
  if (!group) return { hiddenOnPhones: false, others: 0, group };
  const place = group.shown.indexOf(id);
  return {
    hiddenOnPhones: place > 0 && !group.expanded,
    others: place === 0 ? group.shown.length - 1 : 0,
    group,
  };
}

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
  later = false,
  grouped = true,
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
  /** Shown on every page (the layout's): on phones it yields the one line to the page's own notices. */
  later?: boolean;
  /** False for a notice that heads a section further down the page, not the page: it keeps its own line. */
  grouped?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [dismissed, setDismissed] = useState(() => dismissible && wasDismissed(id));
  const { hiddenOnPhones, others, group } = useGroupPlace(id, later, dismissed, grouped);
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
      className={`alert ${TONES[tone]} mb-4 flex items-start gap-3 px-3 py-2 text-start sm:px-4 sm:py-3 ${hiddenOnPhones ? "max-sm:hidden" : ""}`}
    >
      <span className="mt-3 shrink-0 sm:mt-0.5 [&>svg]:size-5">{icon}</span>
      <div className="min-w-0 flex-1">
        {/* Phones: the title is a button that opens the rest; the page's first notice also
            counts the others, which show with a tap. */}
        <div className="flex items-center gap-1 sm:hidden">
          {!children && <p className="flex min-h-11 min-w-0 flex-1 items-center font-medium">{title}</p>}
          <button
            hidden={!children}
            type="button"
            className="flex min-h-11 min-w-0 flex-1 items-center gap-2 text-start font-medium"
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
          {group && others > 0 && (
            <button
              type="button"
              className="btn btn-ghost btn-sm min-h-11 shrink-0 px-2"
              aria-expanded={group.expanded}
              aria-label={
                group.expanded
                  ? "Show one notice"
                  : `Show ${others} more ${others === 1 ? "notice" : "notices"}`
              }
              onClick={group.toggle}
            >
              {group.expanded ? "−" : `+${others}`}
            </button>
          )}
        </div>
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
