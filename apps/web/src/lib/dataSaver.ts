import { useSyncExternalStore } from "react";

// "Data saver" (issue 36 point 6): a choice kept on this device; while on, task pictures are
// not loaded (components/ui/TaskPicture.tsx shows the category's icon instead).

const STORAGE_KEY = "taskmint-data-saver";
const CHANGED = "taskmint-data-saver-changed";

function saving(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === "on";
  } catch {
    return false; // storage blocked: pictures as usual
  }
}

function subscribe(listener: () => void) {
  // Another tab's choice arrives as "storage"; this tab's as our own event.
  window.addEventListener("storage", listener);
  window.addEventListener(CHANGED, listener);
  return () => {
    window.removeEventListener("storage", listener);
    window.removeEventListener(CHANGED, listener);
  };
}

/** Whether the data saver is on (off while rendering on the server). */
export const useDataSaver = () => useSyncExternalStore(subscribe, saving, () => false);

export function setDataSaver(on: boolean) {
  try {
    if (on) localStorage.setItem(STORAGE_KEY, "on");
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage blocked: the choice cannot outlast this page, and is not kept
    return;
  }
  window.dispatchEvent(new Event(CHANGED));
}
