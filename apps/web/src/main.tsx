import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { Providers } from "./app/providers.tsx";
import { routes } from "./app/router.tsx";
import { applyChosenTheme } from "./components/ui/ThemeSwitch.tsx";
import "./index.css";
import { startServiceWorker } from "./lib/pwa.ts";

applyChosenTheme();
startServiceWorker();

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

/** Puts a value into a field the app renders, so that React takes it as typed. */
function typeInto(field: FormField, value: string) {
  // React tracks the values it set: the element's own setter and the event it listens for
  // make it see this one.
  const prototype = Object.getPrototypeOf(field) as FormField;
  Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, value);
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
}

const changedByVisitor = (field: FormField) =>
  field instanceof HTMLSelectElement
    ? [...field.options].some((option) => option.selected !== option.defaultSelected)
    : field.value !== field.defaultValue;

/**
 * What a visitor typed or chose in a prerendered page's fields before the app took over: the
 * app replaces the markup (first with a loading state while the page's code arrives), and this
 * puts the visitor's values and focus into the app's fields of the same name once they appear.
 */
function keepPrerenderedInput(container: HTMLElement) {
  const prerendered = [...container.querySelectorAll<FormField>("input[name], select[name]")];
  if (prerendered.length === 0) return;
  // The visitor may be in a field already (this runs once the script has arrived).
  let focused: Element | null = document.activeElement;
  const noteFocus = (event: FocusEvent) => (focused = event.target as Element);
  container.addEventListener("focusin", noteFocus);
  let pending: FormField[] | null = null;
  const observer = new MutationObserver(() => {
    if (!pending) {
      if (prerendered.some((field) => field.isConnected)) return;
      container.removeEventListener("focusin", noteFocus);
      pending = prerendered.filter((old) => old === focused || changedByVisitor(old));
    }
    pending = pending.filter((old) => {
      const field = container.querySelector<FormField>(`${old.tagName}[name="${old.name}"]`);
      if (!field) return true;
      if (old.value !== field.value) typeInto(field, old.value);
      if (old === focused) {
        field.focus();
        if (
          field instanceof HTMLInputElement &&
          old instanceof HTMLInputElement &&
          old.selectionStart !== null
        )
          field.setSelectionRange(old.selectionStart, old.selectionEnd);
      }
      return false;
    });
    if (pending.length === 0) observer.disconnect();
  });
  observer.observe(container, { childList: true, subtree: true });
  // A page that never renders those fields again stops being watched.
  setTimeout(() => observer.disconnect(), 30_000);
}

// A prerendered page (scripts/prerender.mjs) is painted first; the app takes over after that frame.
if (root.childElementCount > 0) {
  keepPrerenderedInput(root);
  requestAnimationFrame(() => setTimeout(() => start(root)));
} else start(root);
