import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, type ReactNode } from "react";

// react-toastify keeps toasts raised before its container mounts and injects its own CSS,
// so the container can load after the first paint instead of in the first bundle.
const ToastContainer = lazy(() =>
  import("react-toastify").then((module) => ({ default: module.ToastContainer })),
);

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: true, staleTime: 10_000 } },
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Suspense fallback={null}>
        <ToastContainer position="top-right" autoClose={5000} newestOnTop />
      </Suspense>
    </QueryClientProvider>
  );
}
