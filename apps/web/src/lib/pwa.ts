/// <reference types="vite-plugin-pwa/client" />
import { useSyncExternalStore } from "react";

// The service worker (src/sw.ts, built by vite-plugin-pwa): registered after the page has
// loaded, from a module fetched then, so Home's first JavaScript does not carry it (npm run
// size). A new version waits until the user accepts it (registerType "prompt"): the page and
// the worker never mix two builds' bundles (decision 039).

let started = false;
let waitingUpdate = false;
let takeUpdate: ((reloadPage?: boolean) => Promise<void>) | null = null;
const listeners = new Set<() => void>();

const supported = () =>
  import.meta.env.PROD && typeof navigator !== "undefined" && "serviceWorker" in navigator;

function registerWhenLoaded() {
  // Offline before the worker had kept this chunk, the import fails: the next visit registers.
  import("virtual:pwa-register").then(
    ({ registerSW }) => {
      takeUpdate = registerSW({
        immediate: true,
        onNeedRefresh() {
          waitingUpdate = true;
          for (const listener of listeners) listener();
        },
        // A phone keeps the app open for days: look for a new version each time it comes back.
        onRegisteredSW(_url, registration) {
          document.addEventListener("visibilitychange", () => {
            // A failed check (the network dropped meanwhile) is tried again on the next return.
            if (document.visibilityState === "visible" && navigator.onLine)
              registration?.update().catch(() => undefined);
          });
        },
      });
    },
    () => undefined,
  );
}

/** Registers the service worker once, after the page's load event (main.tsx calls it at start). */
export function startServiceWorker() {
  if (started || !supported()) return;
  started = true;
  if (document.readyState === "complete") registerWhenLoaded();
  else window.addEventListener("load", registerWhenLoaded, { once: true });
}

/**
 * The registration whose worker is active, for PushManager.subscribe; null where the browser
 * has no service workers (or in development, where none is registered).
 */
export async function activeServiceWorkerRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!supported()) return null;
  startServiceWorker();
  return navigator.serviceWorker.ready;
}

/** Whether a new version has installed and waits for the user's "Reload". */
export function useUpdateWaiting() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => waitingUpdate,
    () => false,
  );
}

/** Lets the waiting version take over, and reloads the page into it. */
export async function reloadIntoUpdate() {
  await takeUpdate?.(true);
}
