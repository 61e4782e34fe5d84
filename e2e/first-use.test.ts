import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "@taskmint/shared/routes";
import { axeProblems } from "./support/axe.ts";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import { shoot } from "./support/screenshots.ts";
import type { RunningServer } from "./support/server.ts";
import { apiSession, postTaskViaApi, registerViaApi, signedInPage } from "./support/users.ts";

// Issue 34, part A: sign-up in a minute (no photo, initials), a new buyer's start list, a
// worker's level, the account menu with a long name, sign-out, and Home's task search.

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
});
afterAll(() => stopServerAndBrowser(server, browser));

async function phone(): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, baseURL: server.url });
  return [context, await context.newPage()];
}

/** Registers without a photo through the API, as the form does when none is chosen. */
async function registerWithoutPhoto(role: "worker" | "buyer", name: string) {
  const user = {
    email: `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`,
    password: "Secret12",
    name,
  };
  const form = new FormData();
  for (const [field, value] of Object.entries({ name, role, email: user.email, password: user.password }))
    form.append(field, value);
  const answer = await fetch(`${server.url}/api/register`, {
    method: "POST",
    body: form,
    headers: { origin: server.url },
  });
  expect(answer.status, await answer.clone().text()).toBe(201);
  return user;
}

const sideways = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");

describe("sign-up in a minute (issue 34)", () => {
  it("at 375 px signs up without a photo, the rule shown first, and lands in the dashboard with initials", async () => {
    const [context, page] = await phone();
    await page.goto(paths.register);
    await page.getByRole("heading", { name: "Register your account" }).waitFor();
    // The password rule is there before any try, and ticks as it is met.
    const rule = page.locator("#register-password-rule");
    expect(await rule.textContent()).toContain("At least 6 characters");
    await page.getByLabel("Password").fill("Secret12");
    await expect.poll(() => rule.textContent()).toContain("(done)");
    // The role: two radio cards, not a dropdown.
    expect(await page.getByRole("radio").count()).toBe(2);
    await page.getByLabel("I want to earn").check();
    await page.getByLabel("Your name").fill("Rita Newcomer");
    await page.getByLabel("Email").fill(`rita${Date.now()}@example.com`);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.getByRole("button", { name: "Register", exact: true }).click();

    await page.waitForURL(`**${paths.dashboard.workerHome}`);
    const trigger = page.getByRole("button", { name: "Open account menu for Rita Newcomer" });
    await trigger.waitFor();
    expect(await trigger.getByTestId("avatar-initials").textContent()).toBe("RN");
    // A new worker is shown how to start, and their level with what the next one needs.
    await page.getByTestId("worker-first-steps").waitFor();
    expect(await page.getByRole("link", { name: "Find your first task" }).count()).toBe(1);
    const level = page.getByTestId("worker-level");
    await expect.poll(() => level.textContent()).toContain("Bronze needs 10 more decided submissions");
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await context.close();
  });

  it("preselects the role Home's 'Post a task' asks for", async () => {
    const [context, page] = await phone();
    await page.goto(`${paths.register}?role=buyer`);
    await expect.poll(() => page.getByLabel("I want tasks done").isChecked()).toBe(true);
    await context.close();
  });
});

describe("first use for a buyer (issue 34)", () => {
  it("shows the start list led by 'Post your first task' and ticks a step once done", async () => {
    const buyer = await registerWithoutPhoto("buyer", "Bashir Newbuyer");
    const { context, page } = await signedInPage(browser, server.url, buyer, 375);
    await page.goto(paths.dashboard.buyerHome);
    const list = page.getByTestId("buyer-start-list");
    await list.waitFor();
    const main = list.getByRole("link", { name: "Post your first task" });
    expect(await main.getAttribute("class")).toContain("btn-primary");
    expect(await list.locator('li[data-done="true"]').count()).toBe(0);
    await shoot(page, "first-use-buyer-start-list", [375]);

    // Posting a task ticks its step; the Buyer home's main action becomes "Post a task".
    await postTaskViaApi(await apiSession(server.url, buyer), { task_title: "Tag 10 photos" });
    await page.reload();
    await page.getByRole("link", { name: "Post a task" }).first().waitFor();
    await expect.poll(() => list.locator('li[data-done="true"]').count()).toBe(1);
    expect(await list.getByRole("link", { name: "Post your first task" }).count()).toBe(0);
    await context.close();
  });
});

describe("the account menu (issue 34)", () => {
  it("keeps a 40-character name and every item inside a 375-px screen", async () => {
    const name = "Maximiliana Wolfeschlegelsteinhausenberg";
    expect(name).toHaveLength(40);
    const user = await registerWithoutPhoto("worker", name);
    const { context, page } = await signedInPage(browser, server.url, user, 375);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(paths.dashboard.workerHome);
    await page.getByRole("button", { name: `Open account menu for ${name}` }).click();
    const who = page.getByTestId("account-menu-who");
    await who.waitFor();
    const boxes = [
      await who.getByText(name, { exact: true }).boundingBox(),
      ...(await Promise.all((await page.getByRole("menuitem").all()).map((item) => item.boundingBox()))),
    ];
    expect(boxes).toHaveLength(3);
    for (const box of boxes) {
      if (!box) throw new Error("an item of the menu is not laid out");
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    expect(await sideways(page)).toBeLessThanOrEqual(0);

    // Signing out lands on Home, signed out.
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === paths.home);
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect((await page.request.get("/api/me")).status()).toBe(401);
    await context.close();
  });
});

describe("a worker's level (issue 34)", () => {
  it("shows the level, the approval rate and the next level's needs on Profile", async () => {
    const worker = await registerViaApi(server.url, "worker", "Lena Level");
    const { context, page } = await signedInPage(browser, server.url, worker, 375);
    await page.goto(paths.profile);
    const level = page.getByTestId("worker-level");
    await expect.poll(() => level.textContent()).toContain("Bronze needs 10 more decided submissions");
    expect(await level.textContent()).toContain("None yet");
    await context.close();
  });
});

describe("the first-use pages, light and dark (issue 34)", () => {
  it("pass axe with one h1 and fit 375 px: register, a new buyer's and a new worker's home, Profile", async () => {
    const buyer = await registerWithoutPhoto("buyer", "Axel Buyer");
    const worker = await registerWithoutPhoto("worker", "Axel Worker");
    const found: Record<string, string[]> = {};
    for (const theme of ["light", "dark"] as const) {
      for (const [who, path] of [
        [null, paths.register],
        [buyer, paths.dashboard.buyerHome],
        [worker, paths.dashboard.workerHome],
        [worker, paths.profile],
      ] as const) {
        const context = await browser.newContext({
          viewport: { width: 375, height: 812 },
          baseURL: server.url,
          colorScheme: theme,
          reducedMotion: "reduce",
        });
        const page = await context.newPage();
        if (who)
          await page.request.post("/api/auth/sign-in/email", {
            data: { email: who.email, password: who.password },
            headers: { origin: server.url },
          });
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        // A page loaded on demand may paint after the network settles: its heading says it is there.
        await page.locator("h1").first().waitFor();
        const problems = await axeProblems(page);
        const h1s = await page.locator("h1").count();
        if (h1s !== 1) problems.push(`${h1s} h1 elements`);
        if ((await sideways(page)) > 0) problems.push("wider than the screen");
        if (problems.length > 0) found[`${path} ${theme}`] = problems;
        await context.close();
      }
    }
    expect(found).toEqual({});
  });
});

describe("Home serves both sides (issue 34)", () => {
  it("searches tasks from the hero into All Tasks and offers buyers 'Post a task'", async () => {
    const [context, page] = await phone();
    await page.goto(paths.home);
    await page.waitForLoadState("networkidle");
    const search = page.getByRole("searchbox", { name: "Find a task to do" });
    await search.fill("logo review");
    await search.press("Enter");
    await page.waitForURL(
      (url) => url.pathname === paths.allTasks && url.searchParams.get("q") === "logo review",
    );
    await page.goto(paths.home);
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("link", { name: "Post a task" }).getAttribute("href")).toBe(
      `${paths.register}?role=buyer`,
    );
    // Nothing invented in the footer.
    const footer = (await page.locator("footer").textContent()) ?? "";
    expect(footer).not.toMatch(/Market Street|\+880|Opening hours|08:00/);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await context.close();
  });
});
