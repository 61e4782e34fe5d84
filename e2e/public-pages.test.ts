import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import { confirmEmailViaOutbox } from "./support/outbox.ts";
import type { RunningServer } from "./support/server.ts";
import { apiSession, buyCoins, postTaskViaApi, registerViaApi } from "./support/users.ts";

const screenshots = fileURLToPath(new URL("./screenshots", import.meta.url));
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser({
    ADMIN_EMAIL: "boss@example.com",
    ADMIN_PASSWORD: "Admin1234",
  }));
  await mkdir(screenshots, { recursive: true });
  // Top performers: one who earned, and one who earned and then withdrew everything (0 coins).
  const buyer = await registerViaApi(server.url, "buyer", "Big Buyer");
  const asBuyer = await apiSession(server.url, buyer);
  await buyCoins(asBuyer);
  for (const [name, withdrawAll] of [
    ["Ada Earner", false],
    ["Zed Zero", true],
  ] as const) {
    const worker = await registerViaApi(server.url, "worker", name);
    const task = await postTaskViaApi(asBuyer, {
      task_title: `Task for ${name}`,
      task_detail: "Do it.",
      required_workers: "1",
      payable_amount: "190",
      completion_date: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
      submission_info: "Proof",
    });
    const asWorker = await apiSession(server.url, worker);
    const submission = await asWorker<{ id: string }>("POST", `/api/tasks/${task.id}/submissions`, {
      submission_details: "done",
    });
    await asBuyer("POST", `/api/submissions/${submission.id}/approve`, {});
    if (withdrawAll) {
      await confirmEmailViaOutbox(server.dataDir, worker.email);
      await asWorker("POST", "/api/withdrawals", {
        withdrawal_coin: 200,
        payment_system: "PayPal",
        account_number: "zed@example.com",
      });
    }
  }
});
afterAll(() => stopServerAndBrowser(server, browser));

async function open(route: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, baseURL: server.url });
  const page = await context.newPage();
  await page.goto(route);
  // The app renders its first page in a transition, just after the load event. Home and All
  // Tasks are prerendered, so their markup is there before the app: wait until it has taken
  // over (its first requests answered), or a key pressed now reaches markup with no handlers.
  await page.locator("footer").waitFor();
  await page.waitForLoadState("networkidle");
  return page;
}

/** Scrolls to the page's end, where Home loads its top performers as they come near. */
const scrollToEnd = (page: Page) => page.evaluate("window.scrollTo(0, document.body.scrollHeight)");

/** Where the banner's track is scrolled to (the carousel moves it with an inline transform). */
const bannerOffset = async (page: Page) => {
  const style = (await page.getByTestId("banner").locator("div.flex").first().getAttribute("style")) ?? "";
  return Math.round(Number(/translate3d\((-?[\d.]+)px/.exec(style)?.[1] ?? 0));
};

describe("Home", () => {
  it("shows every section with the spec's headings and texts, in sentence case", async () => {
    const page = await open("/");
    await scrollToEnd(page);
    await page.getByTestId("top-performers").waitFor();
    for (const text of [
      "Turn your time into money",
      "Simple tasks, real rewards",
      "Join our growing community",
      "Turn your spare time into extra income",
      "Earn extra cash",
      "Work online",
      "Work from home",
      "Flexible hours",
      "Start earning today",
      "How it works",
      "Why choose us",
      "Easy withdrawals:",
      "Our top performers",
      "What we guarantee",
    ]) {
      expect(await page.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
    }
    for (const button of ["Start earning", "View tasks", "Register now"]) {
      expect(await page.getByRole("link", { name: button }).count(), button).toBe(1);
    }
    await page.context().close();
  });

  it("claims nothing invented: no user counts, testimonials, earnings ranges or round-the-clock support", async () => {
    const page = await open("/");
    // Open every FAQ answer's text too (hidden answers are still in the page's text).
    const text = (await page.locator("main").textContent()) ?? "";
    for (const claim of [
      /10,000/,
      /thousands of users/i,
      /\$200 to \$500/,
      /24\/7/,
      /random checks/i,
      /bonus/i,
    ]) {
      expect(text, String(claim)).not.toMatch(claim);
    }
    expect(await page.getByTestId("guarantees").locator("li").count()).toBe(6);
    await page.context().close();
  });

  it("opens one FAQ answer at a time, the first at load, and links to /about", async () => {
    const page = await open("/");
    const questions = page.getByRole("button", { name: /\?$/ });
    expect(await questions.count()).toBe(6);
    expect(await questions.nth(0).getAttribute("aria-expanded")).toBe("true");
    expect(await questions.nth(1).getAttribute("aria-expanded")).toBe("false");
    await questions.nth(2).click();
    expect(await questions.nth(0).getAttribute("aria-expanded")).toBe("false");
    expect(await questions.nth(2).getAttribute("aria-expanded")).toBe("true");
    await expect
      .poll(() =>
        page.getByText("Bkash, Rocket, Nagad or PayPal once you have at least 200 coins ($10)").isVisible(),
      )
      .toBe(true);
    await page.getByRole("link", { name: "Know more about us" }).click();
    await page.waitForURL(/\/about$/);
    await page.context().close();
  });

  it("advances the banner by itself and holds it while hovered", async () => {
    const page = await open("/");
    const start = await bannerOffset(page);
    await expect.poll(() => bannerOffset(page), { timeout: 9000 }).not.toBe(start);
    await page.getByTestId("banner").hover();
    await page.waitForTimeout(1500); // let a slide change already under way finish
    const held = await bannerOffset(page);
    await page.waitForTimeout(6500); // longer than one 5 s autoplay step
    expect(await bannerOffset(page)).toBe(held);
    await page.context().close();
  });

  it("ranks the top performers in the order received and shows 0 coins for an empty wallet", async () => {
    const page = await open("/");
    const expected = (await (await fetch(`${server.url}/api/workers/top`)).json()) as {
      name: string;
      coins: number;
    }[];
    await scrollToEnd(page);
    const cards = page.getByTestId("top-performers").locator("li");
    await expect.poll(() => cards.count()).toBe(expected.length);
    for (const [index, worker] of expected.entries()) {
      await expect.poll(() => cards.nth(index).textContent()).toContain(worker.name);
      expect(await cards.nth(index).getByTestId("rank").textContent()).toBe(`#${index + 1}`);
    }
    expect(await cards.filter({ hasText: "Zed Zero" }).textContent()).toContain("0 coins");
    expect(await cards.filter({ hasText: "Ada Earner" }).textContent()).toContain("200 coins");
    await page.context().close();
  });

  it("centres the top performers when there are fewer than a row of them", async () => {
    const page = await open("/");
    await scrollToEnd(page);
    const list = page.getByTestId("top-performers");
    const cards = list.locator("li");
    await expect.poll(() => cards.count()).toBe(2);
    const box = await list.boundingBox();
    const first = await cards.first().boundingBox();
    const last = await cards.last().boundingBox();
    if (!box || !first || !last) throw new Error("top performers not laid out");
    const leftGap = first.x - box.x;
    const rightGap = box.x + box.width - (last.x + last.width);
    expect(leftGap).toBeGreaterThan(100);
    expect(Math.abs(leftGap - rightGap)).toBeLessThan(2);
    await page.context().close();
  });

  it("is within the screen and looks right at 375, 768 and 1280 px, Home and About", async () => {
    for (const route of ["/", "/about"]) {
      for (const width of [375, 768, 1280]) {
        const page = await open(route, width);
        // Scroll through once so the lazy images below the fold load before the picture.
        await page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
        await page.waitForLoadState("networkidle");
        await page.evaluate("window.scrollTo(0, 0)");
        const overflow = await page.evaluate<number>(
          "document.documentElement.scrollWidth - window.innerWidth",
        );
        expect(overflow, `${route} at ${width}`).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: path.join(screenshots, `${route === "/" ? "home" : "about"}-${width}.png`),
          fullPage: true,
        });
        await page.context().close();
      }
    }
  });
});

describe("About", () => {
  it("shows the stats, mission, vision, values and both links", async () => {
    const page = await open("/about");
    await page.getByRole("heading", { name: "About TaskMint" }).waitFor();
    for (const text of [
      "20 coins",
      "make $1",
      "200 coins",
      "minimum withdrawal",
      "4",
      "payout methods",
      "Trust and transparency",
      "Quality",
      "Open to everyone",
    ]) {
      expect(await page.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
    }
    const text = (await page.locator("main").textContent()) ?? "";
    for (const claim of [/50K\+/, /1M\+/, /150\+/, /24\/7/, /around the world/i]) {
      expect(text, String(claim)).not.toMatch(claim);
    }
    expect(await page.getByRole("heading", { name: "Our mission" }).count()).toBe(1);
    expect(await page.getByRole("heading", { name: "Our vision" }).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Get started" }).getAttribute("href")).toBe("/dashboard");
    expect(await page.getByRole("link", { name: "Back to home" }).getAttribute("href")).toBe("/");
    await page.context().close();
  });
});

// One h1 and axe on every page, at both widths and in both themes: e2e/design.test.ts.
describe("delivery", () => {
  it("sends the page and its scripts compressed at build time to browsers that accept it", async () => {
    const page = await fetch(server.url, { headers: { "accept-encoding": "br, gzip" } });
    expect(page.headers.get("content-encoding")).toBe("br");
    const html = await page.text();
    const entry = /<script[^>]*\ssrc="([^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    for (const [accepted, sent] of [
      ["br", "br"],
      ["gzip", "gzip"],
      ["identity", null],
    ] as const) {
      const script = await fetch(`${server.url}${entry}`, { headers: { "accept-encoding": accepted } });
      expect(script.status).toBe(200);
      expect(script.headers.get("content-encoding")).toBe(sent);
      expect(await script.text()).toContain("import");
    }
  });

  it("answers Home and All Tasks with their prerendered markup and inline styles, other pages and searches with the shell", async () => {
    const markup = async (page: string) => (await fetch(`${server.url}${page}`)).text();
    const home = await markup("/");
    expect(home).toContain(">Turn your time into money</h1>");
    expect(home).toContain("<style>");
    expect(home).not.toContain('rel="stylesheet"');
    expect(await markup("/allTask")).toContain(">All tasks</h1>");
    // A search's address is not the prerendered page: it gets the shell, and the app renders the search.
    for (const page of [
      "/dashboard/workerHome",
      "/about",
      "/no-such-page",
      "/allTask?q=logo&sort=price_desc",
    ]) {
      const shell = await markup(page);
      expect(shell, page).toContain('<div id="root"></div>');
      expect(shell, page).toContain('rel="stylesheet"');
    }
  });

  it("paints the prerendered Home before the app's script runs, then the app takes over", async () => {
    const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Turn your time into money");
    await context.close();
    const live = await open("/");
    await scrollToEnd(live);
    await live.getByText("Ada Earner").first().waitFor(); // the app took over and loaded the top performers
    await live.context().close();
  });

  /** A page whose app script waits until `release` is called, as on a slow phone. */
  async function withHeldScript() {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, baseURL: server.url });
    const page = await context.newPage();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    return { page, release };
  }

  it("keeps what a visitor typed into the prerendered All Tasks when the app takes over", async () => {
    const { page, release } = await withHeldScript();
    await page.goto("/allTask", { waitUntil: "commit" });
    const search = page.getByRole("searchbox", { name: "Search tasks" });
    await search.fill("logo");
    await page.evaluate("document.querySelector('input[name=q]').dataset.prerendered = 'yes'");
    release();
    // The app renders its own fields over the markup: the typed words and the focus move to them.
    await expect.poll(() => page.locator("input[data-prerendered]").count()).toBe(0);
    expect(await search.inputValue()).toBe("logo");
    expect(await page.evaluate<string>("document.activeElement?.getAttribute('name')")).toBe("q");
    // The app holds the words itself: Enter searches for them.
    await page.keyboard.press("Enter");
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("logo");
    await page.context().close();
  });

  it("searches from the prerendered All Tasks before the app has loaded, through the form itself", async () => {
    const { page, release } = await withHeldScript();
    await page.goto("/allTask", { waitUntil: "commit" });
    await page.getByRole("searchbox", { name: "Search tasks" }).fill("logo");
    await page.getByRole("searchbox", { name: "Search tasks" }).press("Enter");
    await page.waitForURL(/[?&]q=logo/, { waitUntil: "commit" });
    release();
    // The empty fields the form sent are no filter: the app shows the search.
    await expect.poll(() => page.getByRole("searchbox", { name: "Search tasks" }).inputValue()).toBe("logo");
    await page.getByRole("button", { name: "Clear filters" }).waitFor();
    await page.context().close();
  });

  it("opens the mobile menu by keyboard", async () => {
    const page = await open("/", 375);
    const toggle = page.getByRole("button", { name: "Open menu" });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.locator("#mobile-menu").getByRole("link", { name: "All Tasks" }).isVisible())
      .toBe(true);
    await page.context().close();
  });
});
