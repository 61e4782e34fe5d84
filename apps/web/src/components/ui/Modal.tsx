import type { ReactNode } from "react";
import { Dialog } from "./Dialog.tsx";

/** A native <dialog> (focus trap, Escape to close) styled by daisyUI; it may sit inside a Form. */
export function Modal({
  open,
  title,
  onClose,
  children,
  actions,
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
  /** For decisions read from evidence (screenshots, both sides' records): room to see them. */
  wide?: boolean;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy="modal-title"
      className="modal modal-bottom sm:modal-middle"
    >
      <div className={`modal-box max-h-[90vh] ${wide ? "sm:max-w-3xl" : ""}`}>
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
      {/* A button, not daisyUI's <form method="dialog">: a form may not hold another. */}
      <div className="modal-backdrop">
        <button type="button" aria-label="Close" onClick={onClose}>
          close
        </button>
      </div>
    </Dialog>
  );
}
