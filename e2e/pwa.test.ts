import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import sharp from "sharp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "@taskmint/shared/routes";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
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

describe("offline", () => {
  it("opens a visited page with the offline banner and what it last showed", async () => {
    const { context, page } = await controlledWorkerPage();
    await page.goto(paths.dashboard.taskList);
    for (const title of TITLES) await page.getByRole("link", { name: title }).waitFor();
    // The device's copy of the answers is written a moment after they arrive (lib/offline.ts).
    await expect
      .poll(() =>
        page.evaluate<string>(`new Promise((resolve) => {
          const opened = indexedDB.open("keyval-store");
          opened.onsuccess = () => {
            const read = opened.result.transaction("keyval").objectStore("keyval").get("taskmint-queries");
            read.onsuccess = () => resolve(String(read.result ?? ""));
          };
        })`),
      )
      .toContain(TITLES[0]);
    expect(await page.getByTestId("offline-banner").count()).toBe(0);

    await context.setOffline(true);
    await page.reload();
    const banner = page.getByTestId("offline-banner");
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(
      /You are offline\. Showing what TaskMint last knew, updated (just now|\d+ min ago)\./,
    );
    for (const title of TITLES) await page.getByRole("link", { name: title }).waitFor();

    // Starting a task needs the server: it says so, and nothing reaches the server, then or later.
    await page.getByRole("button", { name: `Start ${TITLES[0]}` }).click();
    await page.getByText("You are offline: nothing was sent").first().waitFor();
    await context.setOffline(false);
    await expect.poll(async () => await page.getByTestId("offline-banner").count()).toBe(0);
    expect(await asWorker<unknown[]>("GET", "/api/worker/reservations")).toEqual([]);
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
