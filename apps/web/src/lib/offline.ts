import { createAsyncStoragePersister } from "@tanstack/query-async-storage-persister";
import { onlineManager, type QueryClient } from "@tanstack/react-query";
import type { PersistQueryClientOptions } from "@tanstack/react-query-persist-client";
import { del, get, set } from "idb-keyval";
import { useSyncExternalStore } from "react";
import { ApiError } from "./api.ts";
import { sessionQueries } from "./auth.ts";

// Offline, honestly (issue 36, decision 039): the answers the app last had are kept on the
// device (IndexedDB) and shown when the network is gone, under a banner that says so and how
// old they are. Nothing is sent while offline and nothing waits to be sent later: an action
// needing the server is refused at once with OFFLINE_MESSAGE (no mutation is queued, so coins
// never move later without the worker seeing it).

declare global {
  /** A hash of the web app's sources (vite.config.ts). */
  const __APP_BUILD__: string;
}

export const OFFLINE_MESSAGE = "You are offline: nothing was sent";
const PERSISTED_KEY = "taskmint-queries";
/** How long a kept answer may be shown offline. */
const KEPT_FOR_MS = 7 * 24 * 60 * 60 * 1000;

const persister = createAsyncStoragePersister({
  storage: {
    getItem: (key) => get<string>(key).then((value) => value ?? null),
    setItem: (key, value: string) => set(key, value),
    removeItem: (key) => del(key),
  },
  key: PERSISTED_KEY,
});

/** Queries stay in memory as long as they are kept on the device, so the device's copy keeps them too. */
export const KEPT_QUERY_GC_MS = KEPT_FOR_MS;

const meHash = JSON.stringify(sessionQueries.me().queryKey);

export const persistOptions: Omit<PersistQueryClientOptions, "queryClient"> = {
  persister,
  maxAge: KEPT_FOR_MS,
  // Another build may read its answers differently: it starts from the network.
  buster: __APP_BUILD__,
  // Answers only, never failures; and not "no one is signed in", which a sign-in in another tab
  // makes wrong at once (the guards would send a signed-in user to the sign-in page).
  dehydrateOptions: {
    shouldDehydrateQuery: (query) =>
      query.state.status === "success" && !(query.queryHash === meHash && query.state.data === null),
  },
};

/**
 * After the kept answers are restored: each is shown at once and asked for again as its page
 * mounts, as if it had just gone stale (an answer kept from an hour ago is not fresh). Only
 * those older than this page: an answer it brought along (All Tasks' embedded first page) stays.
 */
export const markRestoredStale = (client: QueryClient) =>
  client.invalidateQueries({
    predicate: (query) => query.state.dataUpdatedAt < performance.timeOrigin,
    refetchType: "none",
  });

/** Removes the device's copy (signing out: the next person on this phone sees none of it). */
export const forgetPersistedQueries = () => persister.removeClient();

// Whether the server cannot be reached: the browser says it is offline, or a request failed
// for want of a network (a connection that is up but leads nowhere). A request that succeeds
// or the browser's "online" clears the latter.
let unreachable = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
const setUnreachable = (value: boolean) => {
  if (unreachable === value) return;
  unreachable = value;
  notify();
};
const isOffline = () => !onlineManager.isOnline() || unreachable;

const isNetworkFailure = (error: unknown) =>
  error instanceof ApiError && (error.code === "NETWORK" || error.code === "OFFLINE");

/** The query and mutation caches' error hook: notes a request that found no network. */
export function noteFailure(error: unknown) {
  if (isNetworkFailure(error)) setUnreachable(true);
}
/** The query and mutation caches' success hook: the server answered. */
export const noteReached = () => setUnreachable(false);

/**
 * The mutation cache's onMutate: runs before any mutation's own function, and refuses it while
 * the browser is offline, so the page's error handling shows OFFLINE_MESSAGE and nothing leaves
 * the device. A server merely unreached so far is tried: the network may be back.
 */
export function refuseWhenOffline() {
  if (!onlineManager.isOnline()) throw new ApiError(0, "OFFLINE", OFFLINE_MESSAGE);
}
export const isOfflineRefusal = isNetworkFailure;

/**
 * Follows the network for the client: TanStack Query starts out assuming it is online, so an
 * app opened offline would fail its queries instead of waiting with the kept answers. Also
 * keeps one person's answers from the next one's session: when the signed-in user changes (a
 * session that ended without signing out), everything but the session is dropped.
 */
export function followConnection(client: QueryClient) {
  onlineManager.setOnline(navigator.onLine);
  onlineManager.subscribe(notify);
  window.addEventListener("online", () => setUnreachable(false));
  // Whose answers the cache holds: noted from the kept copy as it is restored, then from each answer.
  let userId: string | null | undefined;
  return client.getQueryCache().subscribe((event) => {
    if ((event.type !== "added" && event.type !== "updated") || event.query.queryHash !== meHash) return;
    const data = event.query.state.data as { user?: { id: string } } | null | undefined;
    if (data === undefined) return;
    const current = data?.user?.id ?? null;
    const answered = event.type === "updated" && event.action.type === "success";
    if (answered && userId !== undefined && current !== userId)
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueries.all[0] });
    userId = current;
  });
}

/** Whether the app is offline (or cannot reach the server), for the banner. */
export function useOffline() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isOffline,
    () => false,
  );
}
