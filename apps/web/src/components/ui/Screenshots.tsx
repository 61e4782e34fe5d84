import { ChevronLeft, ChevronRight } from "lucide-react";
import { useState, type KeyboardEvent } from "react";
import { Dialog } from "./Dialog.tsx";

/**
 * A submission's screenshots as thumbnails; each opens a full-size viewer that steps through
 * them with the arrow keys (or its buttons) and closes on Escape.
 */
export function Screenshots({
  urls,
  loading = "lazy",
}: {
  urls: string[];
  /** "eager" where the screenshots are the point (a decision's evidence), not one row of many. */
  loading?: "lazy" | "eager";
}) {
  const [shown, setShown] = useState<number | null>(null);
  if (urls.length === 0) return null;
  const step = (by: number) =>
    setShown((index) => (index === null ? null : (index + by + urls.length) % urls.length));
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowRight") step(1);
    else if (event.key === "ArrowLeft") step(-1);
    else return;
    event.preventDefault();
  };
  const current = shown === null ? undefined : urls[shown];
  return (
    <>
      <ul className="flex flex-wrap gap-2" aria-label="Screenshots">
        {urls.map((url, index) => (
          <li key={url}>
            <button
              type="button"
              className="block overflow-hidden rounded-box ring-1 ring-base-300 hover:ring-primary focus-visible:ring-2 focus-visible:ring-primary"
              onClick={() => setShown(index)}
              aria-label={`Open screenshot ${index + 1} of ${urls.length}`}
            >
              <img src={url} alt="" className="size-20 object-cover" loading={loading} />
            </button>
          </li>
        ))}
      </ul>
      <Dialog
        open={current !== undefined}
        onClose={() => setShown(null)}
        labelledBy="screenshot-title"
        className="modal"
      >
        <div className="modal-box max-w-5xl" onKeyDown={onKeyDown}>
          <h2 id="screenshot-title" className="mb-3 font-bold">
            Screenshot {(shown ?? 0) + 1} of {urls.length}
          </h2>
          {current && (
            <img
              src={current}
              alt={`Screenshot ${(shown ?? 0) + 1}`}
              className="mx-auto max-h-[70vh] w-auto rounded-box"
            />
          )}
          <div className="modal-action justify-between">
            <div className="join">
              <button
                type="button"
                className="btn join-item"
                onClick={() => step(-1)}
                aria-label="Previous screenshot"
              >
                <ChevronLeft aria-hidden="true" />
              </button>
              <button
                type="button"
                className="btn join-item"
                onClick={() => step(1)}
                aria-label="Next screenshot"
              >
                <ChevronRight aria-hidden="true" />
              </button>
            </div>
            <button type="button" className="btn" onClick={() => setShown(null)}>
              Close
            </button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
