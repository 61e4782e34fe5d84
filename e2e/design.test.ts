import { appendFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "@taskmint/shared/routes";
import { axeProblems } from "./support/axe.ts";
import { launchBrowser, stopServerAndBrowser } from "./support/browser.ts";
import { ROLES, allPages, settle, signInAs, startDemoServer, type Screen } from "./support/pages.ts";
import type { RunningServer } from "./support/server.ts";
import { submitSignIn } from "./support/users.ts";

// Issue 16's design checks, on every page for every role, at phone and desktop width, light
// and dark: one h1, nothing wider than the screen, no serious or critical axe finding
// (contrast included), and on phones every row action on screen. Then the behaviours of the
// shell: return-to after sign-in, sign-out from the dashboard, the drawer, toast discipline.

/** Every problem found, for reading all at once after a run. */
const PROBLEMS = "/tmp/design-problems.txt";
let server: RunningServer;
let browser: Browser;
let screens: Screen[];

beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchBrowser();
  screens = await allPages(server.url);
});
afterAll(() => stopServerAndBrowser(server, browser));

async function open(width: number, theme: "light" | "dark" = "light"): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width, height: 800 },
    colorScheme: theme,
    reducedMotion: "reduce",
  });
  return [context, await context.newPage()];
}

/** What is wrong with the page as shown: an empty list means it passes. */
async function designProblems(page: Page, width: number): Promise<string[]> {
  const problems: string[] = [];
  const h1s = await page.locator("h1").count();
  if (h1s !== 1) problems.push(`${h1s} h1 elements`);
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
  if (overflow > 0) problems.push(`${overflow} px wider than the screen`);
  problems.push(...(await axeProblems(page)));
  if (width < 640) {
    // Tap targets: every visible button and field at least 44 px tall.
    const small = await page.evaluate<
      string[]
    >(`[...document.querySelectorAll(".btn, select, input:not([type=checkbox], [type=radio], [type=hidden], [type=file])")]
      .filter((node) => node.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && node.getBoundingClientRect().height < 44)
      .map((node) => (node.getAttribute("aria-label") || node.textContent || node.outerHTML).trim().slice(0, 60))`);
    if (small.length > 0) problems.push(`tap targets under 44 px: ${small.join(" | ")}`);
    // A row's actions (buttons, links, selects) lie inside the screen's width.
    for (const action of await page.locator("tbody :is(button, a, select)").all()) {
      const box = await action.boundingBox();
      if (box && (box.x < 0 || box.x + box.width > width))
        problems.push(
          `row action off screen: ${(await action.getAttribute("aria-label")) ?? (await action.innerText())}`,
        );
    }
  }
  return problems;
}

// How the pages look does not depend on the database: this file runs in the PGlite pass only
// (vitest.config.ts, decision 028). Passes run one at a time: axe keeps a core busy, and four at
// once starved the e2e file running beside this one (its server did not start in 60 s).
describe.each(ROLES)("every %s page", (role) => {
  for (const theme of ["light", "dark"] as const) {
    for (const width of [375, 1280]) {
      it(
        `has one h1, fits, passes axe and keeps row actions on screen at ${width} px, ${theme}`,
        async () => {
          const [context, page] = await open(width, theme);
          await signInAs(page, role, server.url);
          const found: Record<string, string[]> = {};
          for (const screen of screens.filter((each) => each.role === role)) {
            await page.goto(screen.path);
            await settle(page);
            const problems = await designProblems(page, width);
            if (problems.length > 0) found[screen.path] = problems;
          }
          await context.close();
          if (Object.keys(found).length > 0)
            appendFileSync(PROBLEMS, `${role} ${width} ${theme}\n${JSON.stringify(found, null, 1)}\n`);
          expect(found).toEqual({});
        },
        // A visitor pass alone takes about 25 s here (13 pages); four side by side took 55-57 s.
        240_000,
      );
    }
  }
});

describe("the dashboard shell", () => {
  it("returns a visitor to the page they asked for after signing in, and stays there", async () => {
    const [context, page] = await open(1280);
    await page.goto(paths.dashboard.mySubmissions);
    await page.waitForURL(`**${paths.login}`);
    await submitSignIn(page, "worker@taskmint.local", "Demo1234");
    await page.waitForURL(`**${paths.dashboard.mySubmissions}`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForTimeout(1000); // long enough for a late redirect to the dashboard to show
    expect(new URL(page.url()).pathname).toBe(paths.dashboard.mySubmissions);
    await context.close();
  });

  it("sends a user who signs in from /login to their role's home", async () => {
    const [context, page] = await open(1280);
    await page.goto(paths.login);
    await submitSignIn(page, "buyer@taskmint.local", "Demo1234");
    await page.waitForURL(`**${paths.dashboard.buyerHome}`);
    await context.close();
  });

  for (const width of [375, 1280]) {
    it(`signs out from the dashboard's account menu at ${width} px`, async () => {
      const [context, page] = await open(width);
      await signInAs(page, "worker", server.url);
      await page.goto(paths.dashboard.workerHome);
      await page.getByRole("button", { name: /^Open account menu/ }).click();
      await page.getByRole("menuitem", { name: /sign out/i }).click();
      await page.waitForURL((url) => url.pathname === paths.home);
      await page.getByText("Signed out", { exact: true }).waitFor();
      const me = await page.request.get("/api/me");
      expect(me.status()).toBe(401);
      await page.goto(paths.dashboard.workerHome);
      await page.waitForURL(`**${paths.login}`);
      await context.close();
    });
  }

  it("opens Profile inside the dashboard from the account menu", async () => {
    const [context, page] = await open(1280);
    await signInAs(page, "buyer", server.url);
    await page.goto(paths.dashboard.buyerHome);
    await page.getByRole("button", { name: /^Open account menu/ }).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    await page.waitForURL(`**${paths.profile}`);
    expect(await page.getByTestId("dashboard-topbar").count()).toBe(1);
    await context.close();
  });

  it("closes the phone drawer with Escape and its close button, giving the focus back", async () => {
    const [context, page] = await open(375);
    await signInAs(page, "worker", server.url);
    await page.goto(paths.dashboard.workerHome);
    const openButton = page.getByRole("button", { name: "Open dashboard menu" });
    const menu = page.getByRole("navigation", { name: "Dashboard menu" });
    for (const close of ["Escape", "button"] as const) {
      await openButton.click();
      await expect.poll(() => menu.isVisible()).toBe(true);
      expect(await openButton.getAttribute("aria-expanded")).toBe("true");
      if (close === "Escape") await page.keyboard.press("Escape");
      else await page.getByRole("button", { name: "Close dashboard menu" }).click();
      await expect.poll(() => openButton.getAttribute("aria-expanded")).toBe("false");
      await expect.poll(() => menu.isVisible()).toBe(false);
      expect(await page.evaluate<string>("document.activeElement?.getAttribute('aria-label')")).toBe(
        "Open dashboard menu",
      );
    }
    await context.close();
  });

  it("clears a stale error toast when the next action succeeds", async () => {
    const [context, page] = await open(1280);
    await page.goto(paths.login);
    await submitSignIn(page, "worker@taskmint.local", "Wrong1234");
    await page.locator(".Toastify__toast--error").waitFor();
    await submitSignIn(page, "worker@taskmint.local", "Demo1234");
    await page.locator(".Toastify__toast--success").waitFor();
    await expect.poll(() => page.locator(".Toastify__toast--error").count()).toBe(0);
    expect(await page.locator(".Toastify__toast").count()).toBe(1);
    await context.close();
  });

  it("shows a missing task as not found at once, without retrying the 404", async () => {
    const [context, page] = await open(1280);
    await signInAs(page, "worker", server.url);
    let asked = 0;
    const missing = "00000000-0000-4000-8000-000000000000";
    page.on("request", (request) => {
      if (request.url().endsWith(`/api/tasks/${missing}`)) asked += 1;
    });
    await page.goto(paths.dashboard.taskDetails(missing));
    await page
      .getByText(/not found/i)
      .first()
      .waitFor({ timeout: 3000 });
    await page.waitForTimeout(1500);
    expect(asked).toBe(1);
    await context.close();
  });
});
