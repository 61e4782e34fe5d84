import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import { shoot } from "./support/screenshots.ts";
import type { RunningServer } from "./support/server.ts";
import { submitSignIn } from "./support/users.ts";

const screenshots = fileURLToPath(new URL("./screenshots", import.meta.url));
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  await mkdir(screenshots, { recursive: true });
});
afterAll(() => stopServerAndBrowser(server, browser));

async function newPage(width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, baseURL: server.url });
  return context.newPage();
}

async function photoFile(): Promise<string> {
  const file = path.join(screenshots, "photo.png");
  await sharp({ create: { width: 120, height: 120, channels: 3, background: "#f97316" } })
    .png()
    .toFile(file);
  return file;
}

describe("a worker's account", () => {
  const email = `wanda${Date.now()}@example.com`;
  const password = "Secret12";

  it("registers with a photo, lands on the dashboard with 10 coins and the worker menu", async () => {
    const page = await newPage();
    await page.goto("/register");
    await expect
      .poll(() => page.getByRole("heading", { name: "Register your account" }).isVisible())
      .toBe(true);
    await page.getByLabel("Your name").fill("Wanda Worker");
    await page.getByLabel("I want to earn").check();
    await page.getByLabel("Photo (optional)").setInputFiles(await photoFile());
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Register", exact: true }).click();

    await page.waitForURL(/\/dashboard/);
    await expect.poll(() => page.getByText("Account created").isVisible()).toBe(true);
    const topBar = page.getByTestId("dashboard-topbar");
    await expect.poll(() => topBar.getByText("Available coins").isVisible()).toBe(true);
    await expect.poll(() => topBar.getByTestId("coin-balance").textContent()).toContain("10");
    const menu = page.getByRole("navigation", { name: "Dashboard menu" });
    for (const entry of ["Worker home", "Task list", "My submissions", "Withdrawals"]) {
      await expect.poll(() => menu.getByRole("link", { name: entry }).isVisible()).toBe(true);
    }
    await expect.poll(() => menu.getByRole("link", { name: "Add new task" }).count()).toBe(0);
    await page.screenshot({ path: path.join(screenshots, "dashboard-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await page.getByTestId("coin-balance").waitFor();
    await page.screenshot({ path: path.join(screenshots, "dashboard-375.png"), fullPage: true });
    await page.getByRole("button", { name: "Open dashboard menu" }).click();
    await expect.poll(() => menu.getByRole("link", { name: "Worker home" }).isVisible()).toBe(true);
    await page.waitForTimeout(500); // let the drawer finish sliding in before the picture
    await page.screenshot({ path: path.join(screenshots, "dashboard-menu-375.png") });
    await page.context().close();
  });

  it("signs out and signs in again", async () => {
    const page = await newPage();
    await page.goto("/login");
    await submitSignIn(page, email, password);
    await page.waitForURL(/\/dashboard/);
    await expect.poll(() => page.getByTestId("coin-balance").first().textContent()).toContain("10");

    await page.goto("/");
    await page.getByRole("button", { name: /account menu/i }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await expect.poll(() => page.getByText("Signed out").isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("link", { name: "Sign in" }).first().isVisible()).toBe(true);

    await page.goto("/dashboard");
    await page.waitForURL(/\/login/);
    await submitSignIn(page, email, "Wrong123");
    await expect.poll(() => page.getByText("Invalid email or password").isVisible()).toBe(true);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(/\/dashboard/);
    await page.context().close();
  });

  it("after a cancelled Google sign-in, shows why on /login and still returns to the page asked for", async () => {
    const page = await newPage();
    // Where the server's auth library sends the browser when the person cancels at Google.
    await page.goto("/login?from=%2Fdashboard%2Fmy-submissions&error=access_denied");
    const toast = page.getByText(
      "Google sign-in was cancelled. Choose Google again to sign in, or use your email and password.",
    );
    await expect.poll(() => toast.isVisible()).toBe(true);
    await page.waitForURL((url) => url.pathname === "/login" && url.search === "");
    await shoot(page, "login-google-error");
    await submitSignIn(page, email, password);
    await page.waitForURL(/\/dashboard\/my-submissions$/);
    await page.context().close();
  });

  it("sends a worker who opens a buyer page to the worker home", async () => {
    const page = await newPage();
    await page.goto("/login");
    await submitSignIn(page, email, password);
    await page.waitForURL(/\/dashboard/);
    await page.goto("/dashboard/add-tasks");
    await page.waitForURL(/\/dashboard\/workerHome/);
    await page.context().close();
  });
});

describe("screenshots of the sign-in pages", () => {
  for (const width of [375, 1280]) {
    it(`shows /login and /register at ${width} px`, async () => {
      const page = await newPage(width);
      for (const route of ["login", "register"]) {
        await page.goto(`/${route}`);
        await page
          .getByRole("button", { name: route === "login" ? "Sign in" : "Register", exact: true })
          .waitFor();
        await page.screenshot({ path: path.join(screenshots, `${route}-${width}.png`), fullPage: true });
      }
      // Nothing may be wider than the screen.
      const overflow = await page.evaluate<number>(
        "document.documentElement.scrollWidth - window.innerWidth",
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await page.context().close();
    });
  }
});
