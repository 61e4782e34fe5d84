import path from "node:path";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import { SCREENSHOTS as screenshots, shoot } from "./support/screenshots.ts";
import type { RunningServer } from "./support/server.ts";
import { apiSession, registerViaApi, signedInPage, submitSignIn, type E2eUser } from "./support/users.ts";

let server: RunningServer;
let browser: Browser;
let buyer: E2eUser;
let worker: E2eUser;
let rejectedWorker: E2eUser;
const title = `Review our landing page ${Date.now()}`;
/** Two screenshots of different widths, so the viewer's steps can be told apart. */
const proofShots = [320, 480].map((width) => path.join(screenshots, `proof-${width}.png`));

beforeAll(async () => {
  for (const [index, file] of proofShots.entries())
    await sharp({
      create: { width: [320, 480][index] ?? 320, height: 200, channels: 3, background: "#0f766e" },
    })
      .png()
      .toFile(file);
  ({ server, browser } = await startServerAndBrowser());
  buyer = await registerViaApi(server.url, "buyer", "Bea Buyer");
  worker = await registerViaApi(server.url, "worker", "Will Worker");
  rejectedWorker = await registerViaApi(server.url, "worker", "Rita Rejected");
});
afterAll(() => stopServerAndBrowser(server, browser));

const coinBalance = (page: Page) => page.getByTestId("coin-balance").first().textContent();

describe("the marketplace loop", () => {
  it("a buyer posts a task with an image and pays for it from their coins", async () => {
    const { context, page } = await signedInPage(browser, server.url, buyer);
    await page.goto("/dashboard/add-tasks");
    await page.getByRole("heading", { name: "Add a micro task" }).waitFor();
    await page.getByLabel("Task title").fill(title);
    await page
      .getByLabel("Task details")
      .fill("Open the page, read it all, and list three things that confused you.");
    await page.getByLabel("Number of workers").fill("2");
    await page.getByLabel("Pay per worker (coins)").fill("5");
    await expect.poll(() => page.getByTestId("total-cost").textContent()).toBe("10 coins");
    const due = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("Completion date").fill(due);
    const image = path.join(screenshots, "task.png");
    await sharp({ create: { width: 640, height: 360, channels: 3, background: "#14b8a6" } })
      .png()
      .toFile(image);
    await page.getByLabel("Task image").setInputFiles(image);
    await page.getByLabel("What to submit").fill("Your three points, as a list.");
    // Category and estimated time are required by the form (the API defaults them for older clients).
    await page.getByRole("button", { name: "Add task" }).click();
    await expect.poll(() => page.getByText("Choose a category").isVisible()).toBe(true);
    await expect
      .poll(() => page.getByText("Estimated time must be at least 1 minute").isVisible())
      .toBe(true);
    await page.getByLabel("Category").selectOption({ label: "Research" });
    await page.getByLabel("Estimated time (minutes)").fill("10");
    await page.getByLabel("Screenshots required").selectOption("2");
    // 5 coins for 10 minutes: 30 coins an hour, $1.50 at 20 coins to the dollar.
    await expect.poll(() => page.getByText("Pays about $1.50/h at this estimate.").isVisible()).toBe(true);
    await shoot(page, "add-task");
    await page.getByRole("button", { name: "Add task" }).click();

    await page.waitForURL(/\/dashboard\/my-tasks/);
    await expect.poll(() => page.getByText("Your task has been created successfully").isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("row", { name: new RegExp(title) }).count()).toBe(1);
    await expect.poll(() => coinBalance(page)).toContain("40");
    await shoot(page, "my-tasks");
    await context.close();
  });

  it("asks a buyer to buy coins when a task costs more than they have", async () => {
    const { context, page } = await signedInPage(browser, server.url, buyer);
    await page.goto("/dashboard/add-tasks");
    await page.getByLabel("Number of workers").fill("100");
    await page.getByLabel("Pay per worker (coins)").fill("100");
    await page.getByLabel("Task title").fill("Too expensive");
    await page.getByLabel("Task details").fill("x");
    await page
      .getByLabel("Completion date")
      .fill(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    await page.getByLabel("Task image").setInputFiles(path.join(screenshots, "task.png"));
    await page.getByLabel("What to submit").fill("x");
    await page.getByLabel("Category").selectOption({ label: "Other" });
    await page.getByLabel("Estimated time (minutes)").fill("5");
    await page.getByRole("button", { name: "Add task" }).click();
    await expect
      .poll(() => page.getByRole("heading", { name: "Insufficient coins!" }).isVisible())
      .toBe(true);
    await page.getByRole("dialog").getByRole("link", { name: "Buy coins" }).click();
    await page.waitForURL(/\/dashboard\/purchase-coin/);
    await context.close();
  });

  it("workers find the task on the task list and submit their work", async () => {
    for (const [user, proof] of [
      [worker, "1. The pricing table. 2. The FAQ links. 3. The footer."],
      [rejectedWorker, "Looks fine."],
    ] as const) {
      const { context, page } = await signedInPage(browser, server.url, user);
      await page.goto("/dashboard/task-list");
      await page.getByRole("heading", { name: "Available tasks" }).waitFor();
      if (user === worker) {
        // Search and filters live in the address; a category without the task empties the list.
        await page.getByRole("combobox", { name: "Category" }).selectOption({ label: "Surveys" });
        await page.getByText("No open tasks match.").waitFor();
        expect(page.url()).toContain("category=surveys");
        await page.getByRole("button", { name: "Clear filters" }).click();
        await page.getByRole("searchbox", { name: "Search tasks" }).fill(title.split(" ").at(-1) ?? "");
        await page.getByRole("searchbox", { name: "Search tasks" }).press("Enter");
        await page.getByRole("combobox", { name: "Category" }).selectOption({ label: "Research" });
        await expect.poll(() => page.getByRole("link", { name: /^View details of / }).count()).toBe(1);
        await shoot(page, "task-list");
      }
      const card = page.getByRole("listitem").filter({ hasText: title });
      // The list loads after the heading: wait for the card before reading it.
      await card.getByText("Research", { exact: true }).waitFor();
      expect(await card.getByText("(about $1.50/h)").isVisible()).toBe(true);
      if (user === worker) {
        // Starting holds a slot: the details page counts the time down, the list keeps it at the top.
        await page.getByRole("button", { name: `Start ${title}` }).click();
        await page.getByRole("heading", { name: "Your slot is held" }).waitFor();
        const timer = page.getByRole("timer");
        const first = await timer.textContent();
        expect(first).toMatch(/^(59:[0-5]\d|1:00:00)$/);
        await expect.poll(() => timer.textContent(), { timeout: 5000 }).not.toBe(first);
        await page.goto("/dashboard/task-list");
        await page.getByRole("link", { name: `Continue ${title}` }).click();
        await page.getByRole("heading", { name: "Submit your work" }).waitFor();
      } else {
        // Without starting: the second way in, folded under "Start task" while a slot is free.
        await page.getByRole("link", { name: `View details of ${title}` }).click();
        await page.locator("summary", { hasText: "Submit without starting" }).click();
      }
      const submit = page.getByRole("button", { name: /^Submit (work|without starting)$/ });
      expect(await page.getByText("5 coins per worker, about $1.50/h").isVisible()).toBe(true);
      expect(await page.getByText("about 10 min", { exact: true }).isVisible()).toBe(true);
      const detailsUrl = page.url();
      await page.getByLabel("Submission details").fill(proof);
      // The task asks for two screenshots: the form says so before anything is sent.
      await submit.click();
      await page.getByText("This task asks for 2 screenshots").waitFor();
      await page.getByLabel(/^Screenshots \(2 required/).setInputFiles(proofShots);
      if (user === worker) await shoot(page, "task-details");
      await submit.click();
      await page.waitForURL(/\/dashboard\/my-submissions/);
      await expect.poll(() => page.getByText("Submission successful!").isVisible()).toBe(true);
      await expect.poll(() => page.getByRole("row", { name: new RegExp(title) }).count()).toBe(1);
      // Back on the task, the worker sees their submission's state instead of the form.
      await page.goto(detailsUrl);
      await page.getByRole("heading", { name: "Submitted, pending review" }).waitFor();
      expect(await page.getByLabel("Submission details").count()).toBe(0);
      if (user === worker) await shoot(page, "task-details-submitted");
      await context.close();
    }
    // Both slots are taken: a third worker is told so and offered no form, never "0 open slots".
    const late = await registerViaApi(server.url, "worker", "Lou Late");
    const { context, page } = await signedInPage(browser, server.url, late);
    const asBuyer = await apiSession(server.url, buyer);
    const mine = await asBuyer<{ items: { id: string; task_title: string }[] }>("GET", "/api/buyer/tasks");
    const task = mine.items.find((item) => item.task_title === title);
    await page.goto(`/dashboard/task-details/${task?.id}`);
    await page.getByRole("heading", { name: "No longer open" }).waitFor();
    expect(await page.getByText("All slots of this task are taken.").isVisible()).toBe(true);
    expect(await page.getByText("None left").isVisible()).toBe(true);
    expect(await page.getByText(/\b0 open slots/).count()).toBe(0);
    expect(await page.getByLabel("Submission details").count()).toBe(0);
    await shoot(page, "task-details-full");
    await context.close();
  });

  it("the buyer approves one submission and rejects the other with a reason", async () => {
    const { context, page } = await signedInPage(browser, server.url, buyer);
    await page.goto("/dashboard/BuyersHome");
    await page.getByRole("heading", { name: "Tasks to review" }).waitFor();
    await expect.poll(() => page.getByRole("row").count()).toBe(3);
    await shoot(page, "buyer-home");

    await page
      .getByRole("row", { name: /Will Worker/ })
      .getByRole("button", { name: "View details" })
      .click();
    await expect.poll(() => page.getByText("1. The pricing table.").isVisible()).toBe(true);
    // The screenshots open full size; the arrow keys step through them, Escape closes the viewer only.
    await page.getByRole("button", { name: "Open screenshot 1 of 2" }).click();
    await page.getByRole("heading", { name: "Screenshot 1 of 2" }).waitFor();
    expect(
      await page
        .getByRole("img", { name: "Screenshot 1" })
        .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBe(320);
    await page.keyboard.press("ArrowRight");
    await page.getByRole("heading", { name: "Screenshot 2 of 2" }).waitFor();
    expect(
      await page
        .getByRole("img", { name: "Screenshot 2" })
        .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBe(480);
    await shoot(page, "screenshot-viewer");
    // The buyer's browser sends its cookie with the image; a browser signed out gets nothing (issue 31).
    const proofUrl = await page.getByRole("img", { name: "Screenshot 2" }).getAttribute("src");
    expect(proofUrl).toMatch(/^\/uploads\//);
    const stranger = await browser.newContext({ baseURL: server.url });
    expect((await stranger.request.get(proofUrl ?? "")).status()).toBe(404);
    await stranger.close();
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("heading", { name: "Screenshot 2 of 2" }).isVisible()).toBe(false);
    await page.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => page.getByText("Submission approved successfully").isVisible()).toBe(true);

    await page
      .getByRole("row", { name: /Rita Rejected/ })
      .getByRole("button", { name: "View details" })
      .click();
    await page.getByRole("button", { name: "Reject" }).click();
    await page.getByLabel(/Reason for rejection/).fill("Please list three concrete points.");
    await page.getByRole("button", { name: "Confirm rejection" }).click();
    await expect.poll(() => page.getByText("Submission rejected successfully").isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Nothing to review right now.").isVisible()).toBe(true);
    await context.close();
  });

  it("the approved worker sees their balance rise; the rejected one sees why", async () => {
    const approved = await signedInPage(browser, server.url, worker);
    await approved.page.goto("/dashboard/workerHome");
    await expect.poll(() => coinBalance(approved.page)).toContain("15");
    await expect.poll(() => approved.page.getByRole("row", { name: new RegExp(title) }).count()).toBe(1);
    await shoot(approved.page, "worker-home");
    await approved.context.close();

    const rejected = await signedInPage(browser, server.url, rejectedWorker);
    await rejected.page.goto("/dashboard/my-submissions");
    await expect
      .poll(() => rejected.page.getByText("Reason: Please list three concrete points.").isVisible())
      .toBe(true);
    await expect.poll(() => coinBalance(rejected.page)).toContain("10");
    await shoot(rejected.page, "my-submissions");
    await rejected.context.close();
  });

  it("visitors search /allTask, order it, share the address, and are sent to sign in to apply", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: server.url });
    const page = await context.newPage();
    await page.goto("/allTask");
    await page.getByRole("heading", { name: "All tasks" }).waitFor();
    // The page is prerendered: what is typed before the app takes over would be lost.
    await page.waitForLoadState("networkidle");
    const search = page.getByRole("searchbox", { name: "Search tasks" });
    await search.fill(title.split(" ").at(-1) ?? "");
    await search.press("Enter");
    await page.getByRole("combobox", { name: "Order" }).selectOption({ label: "Highest reward" });
    await expect.poll(() => page.getByText("1 task", { exact: true }).isVisible()).toBe(true);
    // The address follows the choices (the router updates it just after the change).
    await expect.poll(() => new URL(page.url()).searchParams.get("sort")).toBe("price_desc");
    // The address is the search: opened afresh, it shows the same.
    await page.goto(page.url());
    await expect.poll(() => page.getByText("1 task", { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("combobox", { name: "Order" }).inputValue()).toBe("price_desc");
    await expect
      .poll(() => page.getByRole("searchbox", { name: "Search tasks" }).inputValue())
      .toBe(title.split(" ").at(-1));
    await page.getByRole("button", { name: `Details of ${title}` }).click();
    await expect.poll(() => page.getByText("What to submit").isVisible()).toBe(true);
    // A visitor is not shown the buyer's email (the API does not send it).
    const details = page.getByRole("dialog", { name: title });
    expect(await details.getByText("Contact", { exact: true }).count()).toBe(0);
    expect(await details.getByText(buyer.email).count()).toBe(0);
    await shoot(page, "all-tasks-modal");
    await page.getByRole("button", { name: "Start task" }).click();
    await page.waitForURL(/\/login/);
    await submitSignIn(page, rejectedWorker.email, rejectedWorker.password);
    await page.waitForURL(/\/dashboard\/task-details\//);
    // Signed in, the same details name the buyer's email.
    await page.goto("/allTask");
    await page.getByRole("button", { name: `Details of ${title}` }).click();
    await expect
      .poll(() => page.getByRole("dialog", { name: title }).getByText(buyer.email).isVisible())
      .toBe(true);
    await context.close();
  });
});
