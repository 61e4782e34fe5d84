import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { PersistQueryClientProvider } from "@tanstack/react-query-persist-client";
import { lazy, Suspense, type ReactNode } from "react";
import type { toast as toastApi } from "react-toastify";
import { UpdatePrompt } from "../components/ui/UpdatePrompt.tsx";
import { ApiError } from "../lib/api.ts";
import { sessionQueries } from "../lib/auth.ts";
import {
  followConnection,
  isOfflineRefusal,
  KEPT_QUERY_GC_MS,
  markRestoredStale,
  noteFailure,
  noteReached,
  persistOptions,
  refuseWhenOffline,
} from "../lib/offline.ts";

/**
 * One toast on screen at a time: a new one (a success above all) replaces whatever an
 * earlier action left, so stale errors never stand beside the answer to the latest action.
 */
function keepOnlyTheNewestToast(toast: typeof toastApi) {
  const shown = new Set<string | number>();
  toast.onChange((item) => {
    if (item.status === "removed") {
      shown.delete(item.id);
      return;
    }
    if (item.status !== "added") return;
    for (const id of shown) toast.dismiss(id);
    shown.clear();
    shown.add(item.id);
  });
}

// react-toastify keeps toasts raised before its container mounts and injects its own CSS,
// so the container can load after the first paint instead of in the first bundle.
const ToastContainer = lazy(() =>
  import("react-toastify").then((module) => {
    keepOnlyTheNewestToast(module.toast);
    return { default: module.ToastContainer };
  }),
);

/** A 4xx answer will not change on a retry (a missing task stays missing): show it at once. */
const retryUnlessRefused = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 3;

const queryClient: QueryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: true,
      staleTime: 10_000,
      retry: retryUnlessRefused,
      gcTime: KEPT_QUERY_GC_MS,
    },
    // "always": a mutation offline fails at once (lib/offline.ts) instead of waiting, paused, to
    // be sent when the network returns: nothing moves coins later without the worker seeing it.
    mutations: { networkMode: "always" },
  },
  queryCache: new QueryCache({ onError: noteFailure, onSuccess: noteReached }),
  mutationCache: new MutationCache({
    onMutate: refuseWhenOffline,
    onSuccess: noteReached,
    onError: (error) => {
      noteFailure(error);
      // Pages tell their own failures; this covers any that does not (one toast at a time).
      if (isOfflineRefusal(error))
        void import("react-toastify").then(({ toast }) => toast.error(error.message, { toastId: "offline" }));
      // The server judges the second factor (rule R30): when it refuses an admin action for it, the
      // session is read again, so the page's notice shows what is missing.
      if (error instanceof ApiError && error.code === "TWO_FACTOR_REQUIRED")
        void queryClient.invalidateQueries({ queryKey: sessionQueries.me().queryKey });
    },
  }),
});
// In the browser only: the build renders the public pages through these providers in Node.
if (typeof window !== "undefined") followConnection(queryClient);

export function Providers({ children }: { children: ReactNode }) {
  return (
    // The answers are kept on the device and restored before the first queries run (lib/offline.ts).
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={persistOptions}
      onSuccess={() => markRestoredStale(queryClient)}
    >
      {children}
      <UpdatePrompt />
      <Suspense fallback={null}>
        {/* Bottom corner: never over the header's controls; react-toastify spans phones' full width. */}
        <ToastContainer position="bottom-right" autoClose={5000} newestOnTop />
      </Suspense>
    </PersistQueryClientProvider>
  );
}
