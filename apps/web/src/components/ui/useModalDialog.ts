import { useEffect, useRef } from "react";

/** A native <dialog> shown as a modal while `open` (the browser traps the focus and closes it on Escape). */
export function useModalDialog(open: boolean) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return dialog;
}
