import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { Providers } from "./app/providers.tsx";
import { routes } from "./app/router.tsx";
import { applyChosenTheme } from "./components/ui/ThemeSwitch.tsx";
import "./index.css";

applyChosenTheme();

const router = createBrowserRouter(routes);
const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

/** Starts the app; a transition lets React render in slices that yield to the browser. */
function start(container: HTMLElement) {
  startTransition(() => {
    createRoot(container).render(
      <StrictMode>
        <Providers>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    );
  });
}

type FormField = HTMLInputElement | HTMLSelectElement;

/**
 * What a visitor typed or chose in a prerendered page's fields before the app took over: the
 * app renders fields of its own over them, and this puts the visitor's values (and focus) into
 * the app's fields of the same name once they are on the page.
 */
function keepPrerenderedInput(container: HTMLElement) {
  const prerendered = [...container.querySelectorAll<FormField>("input[name], select[name]")];
  if (prerendered.length === 0) return;
  let focused: Element | null = null;
  const noteFocus = (event: FocusEvent) => (focused = event.target as Element);
  container.addEventListener("focusin", noteFocus);
  const observer = new MutationObserver(() => {
    if (prerendered.some((field) => field.isConnected)) return;
    observer.disconnect();
    container.removeEventListener("focusin", noteFocus);
    for (const old of prerendered) {
      const changed =
        old instanceof HTMLSelectElement
          ? [...old.options].some((option) => option.selected !== option.defaultSelected)
          : old.value !== old.defaultValue;
      const field = container.querySelector<FormField>(`${old.tagName}[name="${old.name}"]`);
      if (!field || (!changed && old !== focused)) continue;
      if (changed) {
        // React tracks the values it set: the element's own setter and the event it listens
        // for make it take the value as typed.
        const prototype = Object.getPrototypeOf(field) as FormField;
        Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, old.value);
        field.dispatchEvent(
          new Event(field instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }),
        );
      }
      if (old !== focused) continue;
      field.focus();
      if (field instanceof HTMLInputElement && old instanceof HTMLInputElement && old.selectionStart !== null)
        field.setSelectionRange(old.selectionStart, old.selectionEnd);
    }
  });
  observer.observe(container, { childList: true });
}

// A prerendered page (scripts/prerender.mjs) is painted first; the app takes over after that frame.
if (root.childElementCount > 0) {
  keepPrerenderedInput(root);
  requestAnimationFrame(() => setTimeout(() => start(root)));
} else start(root);
