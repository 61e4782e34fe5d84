import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "@taskmint/shared/routes";
import { axeProblems } from "./support/axe.ts";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import type { RunningServer } from "./support/server.ts";
import {
  apiSession,
  postTaskViaApi,
  registerViaApi,
  submitSignIn,
  type ApiSession,
  type E2eUser,
} from "./support/users.ts";

// Issue 34, points 3, 9 and 10 at a phone's 375x812: a task list that shows at least four tasks
// on the first screen, filters in a sheet, one way to start a task, and the bell's panel on screen.

/** Pictures to look at (PHONE_DENSITY_SHOTS=dir): each state at phone and desktop width, light and dark. */
const SHOTS = process.env.PHONE_DENSITY_SHOTS;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

const TITLES = [
  "Find the contact email of 5 bakeries in Dhaka",
  "Enter 20 business addresses into a spreadsheet",
  "Follow our page and share the latest post",
  "Test a sign-up form and report any bug you find on the way",
  "Watch and rate a 2-minute product video",
  "Write three honest sentences about our checkout page",
  "Check ten product links and note the broken ones",
  "Tag 30 photos of streets by the kind of shop in them",
  "Answer a five-question survey about grocery delivery",
  "Find the opening hours of 8 libraries in Chittagong",
];

let server: RunningServer;
let browser: Browser;
let worker: E2eUser;
let buyer: E2eUser;
let asBuyer: ApiSession;
let taskIds: string[] = [];

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  buyer = await registerViaApi(server.url, "buyer", "Bashir Buyer");
  worker = await registerViaApi(server.url, "worker", "Wendy Worker");
  asBuyer = await apiSession(server.url, buyer);
  taskIds = [];
  for (const [index, title] of TITLES.entries())
    taskIds.push(
      (
        await postTaskViaApi(asBuyer, {
          task_title: title,
          required_workers: "2",
          payable_amount: String(1 + (index % 3)),
        })
      ).id,
    );
  // Two decisions, so the worker has notifications, a statement and a rejection to read.
  const asWorker = await apiSession(server.url, worker);
  const [first, second] = [taskIds[8], taskIds[9]] as string[];
  const approved = await asWorker<{ id: string }>("POST", `/api/tasks/${first}/submissions`, {
    submission_details: "Done: https://example.com/survey-receipt",
  });
  const rejected = await asWorker<{ id: string }>("POST", `/api/tasks/${second}/submissions`, {
    submission_details: "Here are the hours.",
  });
  await asBuyer("POST", `/api/submissions/${approved.id}/approve`, {});
  await asBuyer("POST", `/api/submissions/${rejected.id}/reject`, {
    reason:
      "The steps are not enough to check: which libraries, and where did you find the hours? Please list each source.",
  });
}, 120_000);
afterAll(() => stopServerAndBrowser(server, browser));

async function signedIn(width: number, theme: "light" | "dark" = "light"): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width, height: width < 640 ? 812 : 800 },
    colorScheme: theme,
    reducedMotion: "reduce",
  });
  const page = await context.newPage();
  await page.goto(paths.login);
  await submitSignIn(page, worker.email, worker.password);
  await page.waitForURL(/\/dashboard/);
  return [context, page];
}

/** The first screen (not the full page) into SHOTS, when asked for. */
async function look(page: Page, name: string, fullPage = false) {
  if (!SHOTS) return;
  const width = page.viewportSize()?.width ?? 0;
  const theme = await page.evaluate<string>(
    "matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'",
  );
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}-${theme}.png`), fullPage });
}

/** A box side (top, height) of every element the selector finds, in the page's order. */
const boxes = (page: Page, selector: string, side: "top" | "height") =>
  page.evaluate<number[]>(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((node) => node.getBoundingClientRect().${side})`,
  );

const overflow = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");

describe("a phone screen that holds a list (issue 34)", () => {
  it("shows at least four task titles within the first 812 px of the worker's task list", async () => {
    const [context, page] = await signedIn(375);
    await page.goto(paths.dashboard.taskList);
    const titles = page.locator("main ul li h2");
    await titles.nth(3).waitFor();
    const tops = await boxes(page, "main ul li h2", "top");
    expect(tops.length).toBeGreaterThanOrEqual(8);
    expect(tops.filter((top) => top < 812).length).toBeGreaterThanOrEqual(4);
    // A title runs to two lines at most.
    const heights = await boxes(page, "main ul li h2", "height");
    expect(Math.max(...heights)).toBeLessThanOrEqual(50);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await axeProblems(page)).toEqual([]);
    await look(page, "task-list");
    await context.close();
  });

  it("folds the filters into a sheet that filters, counts what is on and closes with Escape", async () => {
    const [context, page] = await signedIn(375);
    await page.goto(paths.dashboard.taskList);
    await page.locator("main ul li h2").first().waitFor();
    // The wide bar's fields are not on a phone's screen: one Filters button is.
    expect(await page.getByRole("combobox", { name: "Category" }).count()).toBe(0);
    const filtersButton = page.getByRole("button", { name: /^Filters/ });
    await filtersButton.click();
    const sheet = page.getByRole("dialog", { name: "Filters" });
    await sheet.waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await look(page, "filter-sheet");
    await sheet.getByLabel("Category").selectOption({ label: "Research" });
    await page.waitForURL(/category=research/);
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "hidden" });
    // The focus is back on the button, which says how many filters are on.
    expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label')")).toBe(
      "Filters, 1 on",
    );
    await expect.poll(() => page.locator("main ul li h2").count()).toBeLessThan(TITLES.length);
    for (const category of await page.locator("main ul li").allInnerTexts())
      expect(category.toUpperCase()).toContain("RESEARCH");
    // Clear all from the sheet brings every task back.
    await filtersButton.click();
    await sheet.getByRole("button", { name: "Clear all" }).click();
    await sheet.waitFor({ state: "hidden" });
    await expect.poll(() => new URL(page.url()).search).toBe("");
    await context.close();
  });

  it("keeps the statement to one row per entry and a rejection's reason at full width", async () => {
    const [context, page] = await signedIn(375);
    await page.goto(paths.dashboard.statement);
    const rows = page.locator("main tbody tr");
    await rows.first().waitFor();
    // One row: the coins beside what they were for, not a card of labelled lines under each other.
    for (const height of await boxes(page, "main tbody tr", "height")) expect(height).toBeLessThan(120);
    expect(await boxes(page, "main tbody td:nth-child(3)", "top")).toEqual(
      await boxes(page, "main tbody td:nth-child(2)", "top"),
    );
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await look(page, "statement");
    await page.goto(paths.dashboard.mySubmissions);
    const reason = page.getByText(/^Reason: The steps are not enough/);
    await reason.waitFor();
    expect((await reason.boundingBox())?.width).toBeGreaterThan(250);
    await look(page, "my-submissions");
    await context.close();
  });
});

describe("All Tasks on a phone (issue 34)", () => {
  it("keeps each card well under half a 375x812 screen", async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    await page.goto(paths.allTasks);
    await page.locator("#root article h2").nth(3).waitFor();
    const heights = await boxes(page, "#root article", "height");
    expect(heights.length).toBeGreaterThanOrEqual(8);
    expect(Math.max(...heights)).toBeLessThan(812 / 3);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await axeProblems(page)).toEqual([]);
    await look(page, "all-tasks-visitor");
    await context.close();
  });
});

describe("task details, one way (issue 34)", () => {
  it("offers one start path; submitting without starting is folded, and Hide is in the More menu", async () => {
    const [context, page] = await signedIn(375);
    await page.goto(paths.dashboard.taskDetails(taskIds[0] ?? ""));
    await page.getByRole("heading", { name: "Start this task" }).waitFor();
    expect(await page.getByRole("button", { name: "Start task" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: /^Submit/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /Hide this buyer/ }).count()).toBe(0);
    // The category's picture is a thumbnail on a phone.
    const pictures = (await boxes(page, "main article img", "height")).filter((height) => height > 0);
    expect(Math.max(...pictures)).toBeLessThanOrEqual(64);
    expect(await axeProblems(page)).toEqual([]);
    await look(page, "task-details", true);
    // The More menu: opens, holds Hide, closes with Escape and gives the focus back.
    const more = page.getByRole("button", { name: "More actions" });
    await more.click();
    await page.getByRole("button", { name: "Hide this buyer's tasks" }).waitFor();
    await look(page, "task-more-menu");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Hide this buyer's tasks" }).waitFor({ state: "hidden" });
    expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label')")).toBe(
      "More actions",
    );
    // The second way in, while a slot is free.
    await page.locator("summary", { hasText: "Submit without starting" }).click();
    await page.getByRole("button", { name: "Submit without starting" }).waitFor();
    // Started: the form submits within the time limit, and the fold is gone.
    await page.getByRole("button", { name: "Start task" }).click();
    await page.getByRole("heading", { name: "Your slot is held" }).waitFor();
    await page.getByRole("button", { name: "Submit work" }).waitFor();
    expect(await page.getByText("Submit without starting").count()).toBe(0);
    await look(page, "task-details-started", true);
    await page.getByRole("button", { name: "Give the slot back" }).click();
    await page.getByRole("heading", { name: "Start this task" }).waitFor();
    await context.close();
  });
});

describe("menus and panels that fit (issue 34)", () => {
  it("keeps the bell's panel inside a phone's screen, marks all read and leads to every notification", async () => {
    const [context, page] = await signedIn(375);
    await page.goto(paths.dashboard.workerHome);
    const bell = page.getByRole("button", { name: /^Notifications, \d+ unread$/ });
    await bell.click();
    const panel = page.getByTestId("notification-panel");
    await panel
      .getByText(/upheld|approved|rejected|earned/i)
      .first()
      .waitFor();
    const box = await panel.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    expect(await axeProblems(page)).toEqual([]);
    await look(page, "bell");
    await panel.getByRole("button", { name: "Mark all read" }).click();
    await page.getByRole("button", { name: "Notifications", exact: true }).waitFor();
    expect(await page.getByTestId("unread-count").count()).toBe(0);
    await panel.getByRole("link", { name: "See all notifications" }).click();
    await page.waitForURL(`**${paths.dashboard.notifications}`);
    await page.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();
    expect(
      await page.getByRole("list", { name: "Notifications" }).getByRole("listitem").count(),
    ).toBeGreaterThanOrEqual(2);
    expect(await panel.count()).toBe(0);
    await look(page, "notifications");
    await context.close();
  });
});

describe.runIf(SHOTS)("pictures to look at", () => {
  it("shoots each state at phone and desktop width, light and dark", async () => {
    for (const theme of ["light", "dark"] as const)
      for (const width of [375, 1280]) {
        const [context, page] = await signedIn(width, theme);
        await page.goto(paths.dashboard.taskList);
        await page.locator("main ul li h2").first().waitFor();
        await look(page, "task-list");
        if (width < 640) {
          await page.getByRole("button", { name: /^Filters/ }).click();
          await look(page, "filter-sheet");
          await page.keyboard.press("Escape");
        }
        await page.goto(paths.dashboard.taskDetails(taskIds[1] ?? ""));
        await page.getByRole("heading", { name: "Start this task" }).waitFor();
        await look(page, "task-details", true);
        await page.getByRole("button", { name: /^Notifications/ }).click();
        await page.getByTestId("notification-panel").getByRole("listitem").first().waitFor();
        await look(page, "bell");
        await page.goto(paths.dashboard.notifications);
        await page.getByRole("list", { name: "Notifications" }).waitFor();
        await look(page, "notifications");
        await page.goto(paths.dashboard.statement);
        await page.locator("main tbody tr").first().waitFor();
        await look(page, "statement", true);
        await page.goto(paths.dashboard.mySubmissions);
        await page.getByText(/^Reason:/).waitFor();
        await look(page, "my-submissions", true);
        await page.goto(`${paths.profile}#notifications`);
        await page.getByRole("heading", { name: "Where you are signed in" }).waitFor();
        await page.getByRole("list", { name: "Your sessions" }).waitFor();
        await look(page, "profile", true);
        await page.goto(paths.allTasks);
        await page.getByRole("heading", { level: 1, name: "All tasks" }).waitFor();
        await look(page, "all-tasks");
        await context.close();
      }
  }, 240_000);
});
