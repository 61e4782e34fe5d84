import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import type { RunningServer } from "./support/server.ts";
import { apiSession, postTaskViaApi, registerViaApi, signedInPage } from "./support/users.ts";

// Script in every text one user writes and another reads must stay text.
const PAYLOADS = [
  '<img src=x onerror="window.__xss=1">',
  "<script>window.__xss=2</script>",
  '"><svg onload="window.__xss=3">',
];
const hostile = PAYLOADS.join(" ");

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
});
afterAll(() => stopServerAndBrowser(server, browser));

/** Fails on any script that ran: a dialog, or the marker the payloads set. */
async function assertNoScriptRan(page: Page) {
  expect(await page.evaluate("window.__xss")).toBeUndefined();
}

describe("hostile users", () => {
  it("shows script in titles, details, names and reasons as text, and runs none of it", async () => {
    const buyer = await registerViaApi(server.url, "buyer", `Buyer ${PAYLOADS[0]}`);
    const worker = await registerViaApi(server.url, "worker", `Worker ${PAYLOADS[1]}`);
    const asBuyer = await apiSession(server.url, buyer);
    const task = await postTaskViaApi(asBuyer, {
      task_title: `Title ${hostile}`,
      task_detail: `Detail ${hostile}`,
      required_workers: "2",
      payable_amount: "3",
      completion_date: new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10),
      submission_info: `Info ${hostile}`,
    });
    const asWorker = await apiSession(server.url, worker);
    await asWorker("POST", `/api/tasks/${task.id}/submissions`, { submission_details: `Proof ${hostile}` });

    const visitor = await browser.newContext({ baseURL: server.url });
    const page = await visitor.newPage();
    page.on("dialog", () => {
      throw new Error("a script opened a dialog");
    });
    await page.goto("/allTask");
    await page.getByRole("button", { name: /Details of Title/ }).click();
    await expect.poll(() => page.getByText(`Detail ${hostile}`).isVisible()).toBe(true);
    await assertNoScriptRan(page);
    await visitor.close();

    const buyerView = await signedInPage(browser, server.url, buyer);
    await buyerView.page.goto("/dashboard/BuyersHome");
    await buyerView.page.getByRole("button", { name: "View details" }).click();
    await expect.poll(() => buyerView.page.getByText(`Proof ${hostile}`).isVisible()).toBe(true);
    await buyerView.page.getByRole("button", { name: "Reject" }).click();
    await buyerView.page.getByLabel(/Reason for rejection/).fill(`Reason ${hostile}`);
    await buyerView.page.getByRole("button", { name: "Confirm rejection" }).click();
    await assertNoScriptRan(buyerView.page);
    await buyerView.context.close();

    const workerView = await signedInPage(browser, server.url, worker);
    await workerView.page.goto("/dashboard/my-submissions");
    await expect.poll(() => workerView.page.getByText(`Reason: Reason ${hostile}`).isVisible()).toBe(true);
    await workerView.page.getByRole("button", { name: /Notifications/ }).click();
    await expect.poll(() => workerView.page.getByText(/was rejected: Reason/).isVisible()).toBe(true);
    await assertNoScriptRan(workerView.page);
    await workerView.context.close();
  });

  it("sends a strict content security policy with every page", async () => {
    const response = await fetch(`${server.url}/allTask`);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
  });
});
