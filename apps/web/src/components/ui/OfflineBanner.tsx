import { useQueryClient } from "@tanstack/react-query";
import { WifiOff } from "lucide-react";
import { useSyncExternalStore } from "react";
import { useOffline } from "../../lib/offline.ts";
import { formatDateTime } from "../../lib/format.ts";
import { timeAgo } from "./When.tsx";

/**
 * When the page's answers were fetched: the oldest of the ones it shows (its active queries
 * with data), so "updated 3 h ago" is never fresher than anything on screen. 0: none shown.
 */
function useShownSince() {
  const cache = useQueryClient().getQueryCache();
  return useSyncExternalStore(
    (listener) => cache.subscribe(listener),
    () =>
      Math.min(
        ...cache
          .getAll()
          .filter((query) => query.isActive() && query.state.dataUpdatedAt > 0)
          .map((query) => query.state.dataUpdatedAt),
        Number.POSITIVE_INFINITY,
      ),
    () => Number.POSITIVE_INFINITY,
  );
}

/** Says the app is offline and how old what it shows is (lib/offline.ts); nothing when online. */
export function OfflineBanner() {
  const offline = useOffline();
  const since = useShownSince();
  if (!offline) return null;
  const known = Number.isFinite(since) ? new Date(since).toISOString() : null;
  return (
    // Neutral, unlike the page's notices (warnings to act on): it is the state of the whole app.
    <div
      role="status"
      className="flex items-center gap-3 bg-neutral px-4 py-2 text-sm text-neutral-content sm:px-6"
      data-testid="offline-banner"
    >
      <WifiOff className="size-5 shrink-0" aria-hidden="true" />
      <span>
        <strong>You are offline.</strong>{" "}
        {known ? (
          <>
            Showing what TaskMint last knew, updated{" "}
            <time dateTime={known}>{timeAgo(known) ?? formatDateTime(known)}</time>.
          </>
        ) : (
          "TaskMint has nothing saved for this page yet."
        )}{" "}
        Actions that need the server work again once you are back online.
      </span>
    </div>
  );
}
