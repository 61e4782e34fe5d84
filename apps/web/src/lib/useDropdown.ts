import { useEffect, useRef, useState } from "react";

/**
 * An open/closed menu hanging from a trigger button: spread `triggerProps` on the button and
 * put `box` on the element holding both. A click outside the box closes it; Escape closes it
 * and gives the focus back to the trigger. `onOpen` runs each time it opens.
 */
export function useDropdown({ onOpen }: { onOpen?: () => void } = {}) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onMouseDown = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      trigger.current?.focus();
    };
    document.addEventListener("mousedown", onMouseDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("mousedown", onMouseDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  const triggerProps = {
    ref: trigger,
    type: "button" as const,
    "aria-expanded": open,
    onClick: () => {
      if (!open) onOpen?.();
      setOpen(!open);
    },
  };
  return { open, close: () => setOpen(false), box, triggerProps };
}
