import { readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import sharp from "sharp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "@taskmint/shared/routes";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import { shoot } from "./support/screenshots.ts";
import type { RunningServer } from "./support/server.ts";
import {
  apiSession,
  postTaskViaApi,
  registerViaApi,
  signedInPage,
  type ApiSession,
  type E2eUser,
} from "./support/users.ts";

// Issue 36, deliverables 1 and 2: the installable app (manifest, service worker, a new version
// offered) and offline, honestly (the last answers with their age; nothing sent while offline).

let server: RunningServer;
let browser: Browser;
let worker: E2eUser;
let asWorker: ApiSession;
const TITLES = ["Label 12 photos of shop fronts", "Check five links on a product page"];

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  const buyer = await registerViaApi(server.url, "buyer", "Bea Buyer");
  worker = await registerViaApi(server.url, "worker", "Wes Worker");
  asWorker = await apiSession(server.url, worker);
  const asBuyer = await apiSession(server.url, buyer);
  for (const title of TITLES) await postTaskViaApi(asBuyer, { task_title: title, required_workers: "2" });
}, 120_000);
afterAll(async () => {
  await servedWorkerScript.restore();
  await stopServerAndBrowser(server, browser);
});

/** The built worker script the server sends, and its precompressed copies (scripts/precompress.mjs). */
const servedWorkerScript = (() => {
  const file = fileURLToPath(new URL("../apps/web/dist/sw.js", import.meta.url));
  const copies = {
    [file]: (text: string) => Buffer.from(text),
    [`${file}.br`]: brotliCompressSync,
    [`${file}.gz`]: gzipSync,
  };
  let original: Map<string, Buffer> | null = null;
  return {
    async change(edit: (script: string) => string) {
      original = new Map(
        await Promise.all(Object.keys(copies).map(async (path) => [path, await readFile(path)] as const)),
      );
      const changed = edit((original.get(file) as Buffer).toString("utf8"));
      for (const [path, encode] of Object.entries(copies)) await writeFile(path, encode(changed));
    },
    async restore() {
      if (original) for (const [path, bytes] of original) await writeFile(path, bytes);
      original = null;
    },
  };
})();

// The page's own code, as strings: e2e's TypeScript has Node's types, not the browser's.
/** The answers the app keeps on the device (lib/offline.ts: idb-keyval's store), as stored. */
const keptOnDevice = (page: Page) =>
  page.evaluate<string>(`new Promise((resolve) => {
    const opened = indexedDB.open("keyval-store");
    opened.onsuccess = () => {
      const read = opened.result.transaction("keyval").objectStore("keyval").get("taskmint-queries");
      read.onsuccess = () => resolve(String(read.result ?? ""));
    };
  })`);

const controlled = (page: Page) => page.evaluate<boolean>("navigator.serviceWorker.controller !== null");
const checkForUpdate = (page: Page) =>
  page.evaluate("navigator.serviceWorker.getRegistration().then((registration) => registration.update())");
/** Whether a new worker waits (installed, not yet in charge). */
const updateWaits = (page: Page) =>
  page.evaluate<boolean>(
    "navigator.serviceWorker.getRegistration().then((registration) => registration.waiting !== null)",
  );

/** A signed-in worker's page that a service worker controls (registered on the first load, then a reload). */
async function controlledWorkerPage(): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await signedInPage(browser, server.url, worker, 375);
  await page.evaluate("navigator.serviceWorker.ready.then(() => true)");
  await page.reload();
  await expect.poll(() => controlled(page)).toBe(true);
  return { context, page };
}

describe("the installable app", () => {
  it("links a valid manifest with its icons from every kind of page", async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    // "/" and /allTask are prerendered copies of the shell (scripts/prerender.mjs); /login is the shell.
    for (const address of [paths.home, paths.allTasks, paths.login]) {
      await page.goto(address);
      expect(await page.locator('link[rel="manifest"]').getAttribute("href")).toBe("/manifest.webmanifest");
      expect(await page.locator('meta[name="theme-color"]').getAttribute("content")).toBe("#0f766e");
    }
    const answer = await context.request.get("/manifest.webmanifest");
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      name: "TaskMint",
      short_name: "TaskMint",
      start_url: "/dashboard",
      scope: "/",
      display: "standalone",
      theme_color: "#0f766e",
      background_color: "#ffffff",
    });
    expect(manifest.icons.map(({ sizes, purpose }) => `${sizes} ${purpose}`).sort()).toEqual([
      "192x192 any",
      "512x512 any",
      "512x512 maskable",
    ]);
    for (const icon of manifest.icons) {
      const file = await context.request.get(icon.src);
      expect(file.status()).toBe(200);
      expect(file.headers()["content-type"]).toBe("image/png");
      expect(icon.type).toBe("image/png");
      const { width, height, format } = await sharp(await file.body()).metadata();
      expect(`${width}x${height}`).toBe(icon.sizes);
      expect(format).toBe("png");
    }
    // The worker script is asked for anew on each visit, so a new build is found at once.
    const script = await context.request.get("/sw.js");
    expect(script.status()).toBe(200);
    expect(script.headers()["cache-control"]).toBe("no-cache");
    await context.close();
  });

  it("is controlled by a service worker after a reload, which never answers the API", async () => {
    const { context, page } = await controlledWorkerPage();
    // The API is never answered by the worker: neither cached nor routed (Workbox's route list).
    const fromWorker = await page.evaluate<{ status: number; cachedApiAnswers: number }>(`(async () => {
      const response = await fetch("/api/me", { credentials: "include" });
      let cachedApiAnswers = 0;
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys())
          if (new URL(request.url).pathname.startsWith("/api/")) cachedApiAnswers += 1;
      return { status: response.status, cachedApiAnswers };
    })()`);
    expect(fromWorker).toEqual({ status: 200, cachedApiAnswers: 0 });
    await context.close();
  });
});

describe("push", () => {
  it("shows a pushed alert as a notification with its title, text and tag", async () => {
    const { context, page } = await controlledWorkerPage();
    await context.grantPermissions(["notifications"], { origin: server.url });
    // The browser's push service is not reachable from a test: DevTools hands the worker the
    // push message as the service would (PushPayload, packages/shared/src/phone.ts).
    const devtools = await context.newCDPSession(page);
    const registrations = new Promise<string>((resolve) =>
      devtools.on("ServiceWorker.workerRegistrationUpdated", ({ registrations: [first] }) => {
        if (first) resolve(first.registrationId);
      }),
    );
    await devtools.send("ServiceWorker.enable");
    const payload = {
      title: "2 new tasks match 'photos'",
      body: "Label 12 photos of shop fronts, and 1 more",
      url: "/dashboard/task-list?q=photos",
      tag: "saved-search-1",
    };
    await devtools.send("ServiceWorker.deliverPushMessage", {
      origin: server.url,
      registrationId: await registrations,
      data: JSON.stringify(payload),
    });
    const shown = () =>
      page.evaluate<{ title: string; body: string; tag: string; url: string }[]>(
        `navigator.serviceWorker.ready.then((registration) => registration.getNotifications()).then((list) =>
          list.map((notification) => ({ title: notification.title, body: notification.body, tag: notification.tag, url: notification.data.url })))`,
      );
    await expect.poll(shown).toEqual([payload]);
    await context.close();
  });
});

describe("offline", () => {
  it("opens a visited page with the offline banner and what it last showed", async () => {
    const { context, page } = await controlledWorkerPage();
    await page.goto(paths.dashboard.taskList);
    for (const title of TITLES) await page.getByRole("link", { name: title }).waitFor();
    // The device's copy of the answers is written a moment after they arrive (lib/offline.ts).
    await expect.poll(() => keptOnDevice(page)).toContain(TITLES[0]);
    expect(await page.getByTestId("offline-banner").count()).toBe(0);

    await context.setOffline(true);
    await page.reload();
    const banner = page.getByTestId("offline-banner");
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(
      /You are offline\. Showing what TaskMint last knew, updated (just now|\d+ min ago)\./,
    );
    for (const title of TITLES) await page.getByRole("link", { name: title }).waitFor();
    await shoot(page, "offline-banner");

    // Starting a task needs the server: it says so, and nothing reaches the server, then or later.
    await page.getByRole("button", { name: `Start ${TITLES[0]}` }).click();
    await page.getByText("You are offline: nothing was sent").first().waitFor();
    await shoot(page, "offline-refused");
    await context.setOffline(false);
    await expect.poll(async () => await page.getByTestId("offline-banner").count()).toBe(0);
    expect(await asWorker<unknown[]>("GET", "/api/worker/reservations")).toEqual([]);
    await context.close();
  });
});

describe("signing out", () => {
  it("removes the answers kept on the device, so the next person on the phone sees none", async () => {
    const { context, page } = await signedInPage(browser, server.url, worker, 375);
    await page.goto(paths.dashboard.taskList);
    await page.getByRole("link", { name: TITLES[0] }).waitFor();
    await expect.poll(() => keptOnDevice(page)).toContain(TITLES[0]);
    await page.getByRole("button", { name: /Open account menu/ }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByText("Signed out").waitFor();
    await expect.poll(async () => (await keptOnDevice(page)).includes(TITLES[0] as string)).toBe(false);
    expect(await keptOnDevice(page)).not.toContain(worker.email);
    await context.close();
  });
});

describe("a new version", () => {
  it("is offered with a Reload that takes it up", async () => {
    const { context, page } = await controlledWorkerPage();
    // A new build, without building: the same worker script with one line more, as the server
    // sends it (its Brotli and gzip copies too). Playwright's routes do not reach the browser's
    // own update check of the worker script, so the file itself changes, and is put back after.
    await servedWorkerScript.change((script) => `${script}\n// the next build\n`);
    await checkForUpdate(page);
    const prompt = page.getByTestId("update-prompt");
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain("A new version of TaskMint is ready. Reload to update.");
    await shoot(page, "update-prompt");
    // Nothing changes until the user accepts: the new worker waits, the old one is in charge.
    expect(await updateWaits(page)).toBe(true);
    expect(await controlled(page)).toBe(true);

    const reloaded = page.waitForEvent("load");
    await prompt.getByRole("button", { name: "Reload" }).click();
    await reloaded;
    // The page reloaded into the new worker, which is in charge now, with nothing left waiting.
    await expect.poll(() => updateWaits(page)).toBe(false);
    expect(await controlled(page)).toBe(true);
    expect(await page.getByTestId("update-prompt").count()).toBe(0);
    await context.close();
  });
});

/**
 * A TCP proxy in front of the server that counts the bytes the server sends through it: what a
 * phone receives, headers, images and the service worker's own downloads included. A page on
 * the proxy's address is a new origin (a first visit), and the session cookie (host-only) comes along.
 */
async function countingProxy(target: string) {
  const upstreamPort = Number(new URL(target).port);
  let received = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(upstreamPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.on("data", (chunk: Buffer) => (received += chunk.length));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Bytes received since the last call. */
    take() {
      const taken = received;
      received = 0;
      return taken;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

describe("light on data (issue 36 point 6)", () => {
  it("keeps the worker's task list and a task's details within 300 KB on a first visit and 50 KB on a return", async () => {
    const proxy = await countingProxy(server.url);
    const sizes: Record<string, number> = {};
    try {
      const { items } = await asWorker<{ items: { id: string }[] }>("GET", "/api/tasks?limit=10");
      const details = paths.dashboard.taskDetails(items[0]?.id ?? "");
      for (const [name, address, shown] of [
        ["task list", paths.dashboard.taskList, TITLES[0] as string],
        ["task details", details, "Task details"],
      ] as const) {
        // Signed in on the server's own address; the visit is on the proxy's, new to the browser.
        const { context, page } = await signedInPage(browser, server.url, worker, 375);
        proxy.take();
        await page.goto(`${proxy.url}${address}`);
        await page.getByText(shown).first().waitFor();
        // The first visit ends once the service worker has installed (its precache downloaded).
        await page.evaluate("navigator.serviceWorker.ready.then(() => true)");
        await page.evaluate("document.fonts.ready.then(() => true)");
        sizes[`${name}, first visit`] = proxy.take();
        await page.reload();
        await page.getByText(shown).first().waitFor();
        await expect.poll(() => controlled(page)).toBe(true);
        sizes[`${name}, return visit`] = proxy.take();
        await context.close();
      }
    } finally {
      await proxy.close();
    }
    console.log("bytes received at 375 px:", sizes);
    for (const [visit, bytes] of Object.entries(sizes))
      expect(bytes, visit).toBeLessThan((visit.endsWith("first visit") ? 300 : 50) * 1024);
  });

  it("gives task pictures narrower copies to choose from, and loads none with the data saver on", async () => {
    const { context, page } = await signedInPage(browser, server.url, worker, 1280);
    await page.goto(paths.dashboard.taskList);
    const picture = page.locator("main li img").first();
    await picture.waitFor();
    expect(await picture.getAttribute("srcset")).toMatch(
      /\?w=160 160w, .*\?w=480 480w, .*\?w=800 800w, .* 1200w$/,
    );
    expect(await picture.getAttribute("loading")).toBe("lazy");

    await page.getByRole("button", { name: /Open account menu/ }).click();
    await page.getByRole("menuitemcheckbox", { name: /Data saver/ }).click();
    expect(await page.locator("main li img").count()).toBe(0);
    expect(await page.getByTestId("task-picture-saved").count()).toBe(TITLES.length);

    // Kept on the device: after a reload no task picture is asked for (the avatar still is).
    const { items } = await asWorker<{ items: { task_image_url: string }[] }>("GET", "/api/tasks?limit=10");
    const taskPictures = new Set(items.map((task) => new URL(task.task_image_url, server.url).pathname));
    expect(taskPictures.size).toBe(TITLES.length);
    const pictures: string[] = [];
    page.on("request", (request) => {
      if (taskPictures.has(new URL(request.url()).pathname)) pictures.push(request.url());
    });
    await page.reload();
    await page.getByRole("link", { name: TITLES[0], exact: true }).waitFor();
    expect(await page.getByTestId("task-picture-saved").count()).toBe(TITLES.length);
    expect(pictures).toEqual([]);
    await context.close();
  });
});
