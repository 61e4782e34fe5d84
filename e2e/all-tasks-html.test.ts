import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskSearchPage } from "@taskmint/shared";
import { FIRST_PAGE_DATA_ID } from "@taskmint/shared/html";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import type { RunningServer } from "./support/server.ts";
import { apiSession, buyCoins, postTaskViaApi, registerViaApi } from "./support/users.ts";

// Decision 020: the server renders All Tasks with the public list's first page (cards, pictures
// and the page's JSON in the HTML), so a phone paints the tasks before the app's script runs.

const HOSTILE_TITLE = "</script><script>alert(1)</script>";
const HOSTILE_DETAIL = "<!-- <script>alert(2)</script> \u2028 \u2029 &amp; $& $'";
const TASKS = 14; // more than the first page's 12: "Load more" has something to load
const FIRST_PAGE_URL = "/api/tasks?sort=newest&limit=12";

let server: RunningServer;
let browser: Browser;
/** The first page as the API answers a visitor. */
let firstPage: TaskSearchPage;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  const buyer = await registerViaApi(server.url, "buyer", "Html Buyer");
  const asBuyer = await apiSession(server.url, buyer);
  await buyCoins(asBuyer);
  for (let index = 1; index <= TASKS; index += 1) {
    // The newest, first on the page, has a title and details that try to end the page's JSON.
    const last = index === TASKS;
    await postTaskViaApi(asBuyer, {
      task_title: last ? HOSTILE_TITLE : `Rendered task ${index}`,
      task_detail: last ? HOSTILE_DETAIL : "Do it.",
    });
  }
  firstPage = (await (await fetch(`${server.url}${FIRST_PAGE_URL}`)).json()) as TaskSearchPage;
});
afterAll(() => stopServerAndBrowser(server, browser));

/** Text as it appears in HTML markup. */
const htmlText = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

describe("All Tasks in the served HTML", () => {
  it("has the first page's task titles, the first picture at high priority, and the page's JSON", async () => {
    expect(firstPage.items).toHaveLength(12);
    expect(firstPage.items[0]?.task_title).toBe(HOSTILE_TITLE);
    const html = await (await fetch(`${server.url}/allTask`)).text();
    const root = html.slice(html.indexOf('<div id="root">'));
    for (const task of firstPage.items) expect(root, task.task_title).toContain(htmlText(task.task_title));
    // The 13th task is for "Load more".
    expect(html).not.toContain("Rendered task 1<");
    // The first card's picture: loaded at once, before anything else.
    const pictures = [...root.matchAll(/<img [^>]*>/g)].map((match) => match[0]);
    expect(pictures[0]).toContain(`src="${firstPage.items[0]?.task_image_url}"`);
    expect(pictures[0]).toMatch(/fetchpriority="high"/i);
    expect(pictures[0]).not.toMatch(/loading="lazy"/);
    // The app's scripts (not needed for this first paint) come after it, at low priority.
    const scripts = [...html.matchAll(/<(?:script [^>]*src|link rel="modulepreload")[^>]*>/g)];
    expect(scripts.length).toBeGreaterThan(1);
    for (const [tag] of scripts) expect(tag).toContain('fetchpriority="low"');
    // The page's data, as the API answers it, for the app's query cache; no preload asks for it again.
    const data = new RegExp(
      `<script type="application/json" id="${FIRST_PAGE_DATA_ID}">([^<]*)</script>`,
    ).exec(html);
    expect(JSON.parse(data?.[1] ?? "null")).toEqual(firstPage);
    expect(html).not.toContain('rel="preload" href="/api/tasks');
  });

  it("keeps a title that tries to end the script as text: nothing injected runs", async () => {
    const html = await (await fetch(`${server.url}/allTask`)).text();
    expect(html).not.toContain(HOSTILE_TITLE);
    expect(html).not.toContain("<!-- <script>");
    expect(html).not.toMatch(/[\u2028\u2029]/);
    for (const javaScript of [false, true]) {
      const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled: javaScript });
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto("/allTask");
      if (javaScript) await page.waitForLoadState("networkidle");
      const heading = page.locator("#root article h2").first();
      expect(await heading.textContent()).toBe(HOSTILE_TITLE);
      // The only inline script elements are the page's JSON (gone once the app has read it).
      const inline = await page.evaluate<string[]>(
        "[...document.scripts].filter((script) => !script.src).map((script) => script.type)",
      );
      expect(
        inline.every((type) => type === "application/json"),
        inline.join(),
      ).toBe(true);
      expect(dialogs).toEqual([]);
      await context.close();
    }
  });
});

/** Opens All Tasks with JavaScript on, noting every request for a page of tasks. */
async function openWithApp(): Promise<{ page: Page; taskRequests: string[] }> {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, baseURL: server.url });
  const page = await context.newPage();
  const taskRequests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/tasks") taskRequests.push(url.search);
  });
  // Whether the cards were ever gone once painted (the app renders over the server's markup).
  await page.addInitScript(`
    const state = { painted: false, gone: false };
    window.cardWatch = state;
    new MutationObserver(() => {
      const cards = document.querySelectorAll("#root article").length;
      if (cards > 0) state.painted = true;
      else if (state.painted) state.gone = true;
    }).observe(document, { childList: true, subtree: true });
  `);
  await page.goto("/allTask");
  await page.locator("footer").waitFor();
  await page.waitForLoadState("networkidle");
  return { page, taskRequests };
}

describe("All Tasks with the app", () => {
  it("starts with the embedded first page: no second request, the same cards, never a flash of no cards", async () => {
    const { page, taskRequests } = await openWithApp();
    // The app has taken over: it removed the page's JSON when it read it.
    await expect.poll(() => page.locator(`#${FIRST_PAGE_DATA_ID}`).count()).toBe(0);
    const titles = await page.locator("#root article h2").allTextContents();
    expect(titles).toEqual(firstPage.items.map((task) => task.task_title));
    expect(taskRequests).toEqual([]);
    expect(await page.evaluate("window.cardWatch")).toEqual({ painted: true, gone: false });
    // The next page still comes from the API, after the embedded one.
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => page.locator("#root article").count()).toBe(TASKS);
    expect(taskRequests).toHaveLength(1);
    expect(taskRequests[0]).toContain("cursor=");
    await page.context().close();
  });

  it("asks the API for a search, which the served page does not carry", async () => {
    const { page, taskRequests } = await openWithApp();
    await page.getByRole("searchbox", { name: "Search tasks" }).fill("Rendered");
    await page.getByRole("searchbox", { name: "Search tasks" }).press("Enter");
    await expect.poll(() => taskRequests.some((search) => search.includes("q=Rendered"))).toBe(true);
    await expect.poll(() => page.getByRole("heading", { name: HOSTILE_TITLE }).count()).toBe(0);
    await page.context().close();
  });
});
