/// <reference lib="webworker" />
import type { PushPayload } from "@taskmint/shared";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst } from "workbox-strategies";

// TaskMint's service worker (decision 039), built by vite-plugin-pwa (injectManifest): the app
// shell and the build's hashed files from the cache; pages from the network, the shell when
// offline; public task pictures from the cache. API answers are never touched here: the page
// shows what it last knew from its own persisted query cache, with its time, and says it is
// offline (lib/offline.ts), so nothing stale passes for fresh.

declare const self: ServiceWorkerGlobalScope;

const SHELL = "index.html";

// Pages first (routes match in the order they are registered): the network's answer, which
// for / and /allTask carries prerendered markup and data; offline, the precached shell, whose
// app renders from the persisted queries. API, uploads and the API's own pages are not pages.
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch (error) {
        const shell = await matchPrecache(SHELL);
        if (shell) return shell;
        throw error;
      }
    },
    { denylist: [/^\/api\//, /^\/uploads\//, /^\/healthz/] },
  ),
);

// The shell (index.html and the files it names; vite.config.ts): precached on install, cleaned
// when a newer worker takes over.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * Only the build's files themselves: the server answers an address it does not have (another
 * build's chunk) with the app's page, which must never be kept under a chunk's name.
 */
const builtFilesOnly = {
  cacheWillUpdate: async ({ response }: { response: Response }) =>
    response.status === 200 && !response.headers.get("Content-Type")?.startsWith("text/html")
      ? response
      : null,
};

// Each page's own chunk, the first time it loads. Their names carry their content's hash, so a
// cached one is never stale, and an old build's page still finds its own chunks.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/assets/"),
  new CacheFirst({
    cacheName: "page-chunks",
    plugins: [
      builtFilesOnly,
      new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

/**
 * Only whole pictures the server marks public (task pictures): a screenshot (private) is asked
 * for each time, so no copy outlives a sign-out.
 */
const publicPicturesOnly = {
  cacheWillUpdate: async ({ response }: { response: Response }) =>
    response.status === 200 && /\bpublic\b/.test(response.headers.get("Cache-Control") ?? "")
      ? response
      : null,
};
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/uploads/"),
  new CacheFirst({
    cacheName: "task-pictures",
    plugins: [
      publicPicturesOnly,
      new ExpirationPlugin({ maxEntries: 80, maxAgeSeconds: 7 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

// A new version waits (registerType "prompt") until the page's "Reload" sends this.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

/** The server's push (PushPayload); anything else is shown as a plain TaskMint notice. */
function readPayload(event: PushEvent): PushPayload {
  const fallback: PushPayload = { title: "TaskMint", body: "", url: "/dashboard", tag: "taskmint" };
  try {
    const data = event.data?.json() as Partial<PushPayload> | undefined;
    return {
      title: typeof data?.title === "string" ? data.title : fallback.title,
      body: typeof data?.body === "string" ? data.body : fallback.body,
      url: typeof data?.url === "string" ? data.url : fallback.url,
      tag: typeof data?.tag === "string" ? data.tag : fallback.tag,
    };
  } catch {
    return { ...fallback, body: event.data?.text() ?? "" };
  }
}

self.addEventListener("push", (event) => {
  const { title, body, url, tag } = readPayload(event);
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      tag,
      data: { url },
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
    }),
  );
});

/** The address a notification opens: its own, on this origin only. */
function targetOf(notification: Notification) {
  const url = new URL(
    (notification.data as { url?: string } | null)?.url ?? "/dashboard",
    self.location.origin,
  );
  return url.origin === self.location.origin ? url : new URL("/dashboard", self.location.origin);
}

// A tap brings an open TaskMint window to the task, or opens one there.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = targetOf(event.notification);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === target.origin);
      if (open) {
        const focused = await open.focus();
        // navigate() needs a window this worker controls; any other opens anew.
        if (await focused.navigate(target.href).catch(() => null)) return;
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});
