import { MutationCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, type ReactNode } from "react";
import type { toast as toastApi } from "react-toastify";
import { ApiError } from "../lib/api.ts";
import { sessionQueries } from "../lib/auth.ts";

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
  defaultOptions: { queries: { refetchOnWindowFocus: true, staleTime: 10_000, retry: retryUnlessRefused } },
  mutationCache: new MutationCache({
    // The server judges the second factor (rule R30): when it refuses an admin action for it, the
    // session is read again, so the page's notice shows what is missing.
    onError: (error) => {
      if (error instanceof ApiError && error.code === "TWO_FACTOR_REQUIRED")
        void queryClient.invalidateQueries({ queryKey: sessionQueries.me().queryKey });
    },
  }),
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Suspense fallback={null}>
        {/* Bottom corner: never over the header's controls; react-toastify spans phones' full width. */}
        <ToastContainer position="bottom-right" autoClose={5000} newestOnTop />
      </Suspense>
    </QueryClientProvider>
  );
}
