import { useEffect, useRef, type ReactNode } from "react";

/** A native <dialog> (focus trap, Escape to close) styled by daisyUI. */
export function Modal({
  open,
  title,
  onClose,
  children,
  actions,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="modal modal-bottom sm:modal-middle"
      onClose={onClose}
      aria-labelledby="modal-title"
    >
      <div className="modal-box max-h-[90vh]">
        <h2 id="modal-title" className="mb-3 text-lg font-bold">
          {title}
        </h2>
        {children}
        <div className="modal-action">
          {actions}
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <form method="dialog" className="modal-backdrop">
        <button type="submit" aria-label="Close">
          close
        </button>
      </form>
    </dialog>
  );
}
