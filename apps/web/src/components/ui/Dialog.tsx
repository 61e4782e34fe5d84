import { useEffect, useRef, type ReactNode } from "react";

/**
 * A native <dialog> shown as a modal while `open` (the browser traps the focus and closes it
 * on Escape); `alert` makes it an alertdialog, for questions before destructive actions.
 */
export function Dialog({
  open,
  onClose,
  labelledBy,
  describedBy,
  alert = false,
  className = "modal",
  children,
}: {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  describedBy?: string;
  alert?: boolean;
  className?: string;
  children: ReactNode;
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
      className={className}
      // React passes a nested dialog's close up to this one: only this dialog's own closing counts.
      onClose={(event) => event.target === event.currentTarget && onClose()}
      role={alert ? "alertdialog" : undefined}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
    >
      {children}
    </dialog>
  );
}
