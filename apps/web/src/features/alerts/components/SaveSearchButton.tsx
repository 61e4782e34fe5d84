import { BookmarkPlus } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import type { SearchFilters } from "../searchWords.ts";

// The dialog and its form library load on the first click: most visits to the task list save nothing.
const loadDialog = () => import("./SaveSearchDialog.tsx");
const SaveSearchDialog = lazy(() => loadDialog().then((module) => ({ default: module.SaveSearchDialog })));

/** "Save this search" on the task list: the current filters, named, with the alerts chosen. */
export function SaveSearchButton({ filters }: { filters: SearchFilters }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    // The dialog leaves the page with its form: the focus goes back where it came from.
    button.current?.focus();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn btn-outline btn-primary btn-sm"
        aria-haspopup="dialog"
        // A pointer on its way or the keyboard's focus: fetch the dialog before the click.
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => setOpen(true)}
      >
        <BookmarkPlus className="size-4" aria-hidden="true" />
        Save this search
      </button>
      {open && (
        <Suspense fallback={null}>
          <SaveSearchDialog filters={filters} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
