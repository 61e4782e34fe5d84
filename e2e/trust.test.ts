import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { shoot } from "./support/screenshots.ts";
import type { RunningServer } from "./support/server.ts";
import {
  apiSession,
  postTaskViaApi,
  registerViaApi,
  signedInPage,
  serverWithAdminPerFile,
  type ApiSession,
  type E2eUser,
} from "./support/users.ts";

// Issue 18 in the browser: an appeal through every step, a block, a bonus sent by double-click.

const admin: E2eUser = { email: "judge@example.com", password: "Admin1234", name: "Admin" };
let server: RunningServer;
let browser: Browser;

// Deciding an appeal moves coins: it needs two-factor sign-in (rule R30).
serverWithAdminPerFile(admin, (started) => ({ server, browser } = started));

const coinsOf = async (session: ApiSession) =>
  (await session<{ user: { coins: number } }>("GET", "/api/me")).user.coins;

/** A buyer's task and a worker's pending submission to it, through the API. */
async function submittedWork(title: string, slots = "2") {
  const buyer = await registerViaApi(server.url, "buyer", "Bashir Buyer");
  const worker = await registerViaApi(server.url, "worker", "Wendy Worker");
  const asBuyer = await apiSession(server.url, buyer);
  const asWorker = await apiSession(server.url, worker);
  const task = await postTaskViaApi(asBuyer, {
    task_title: title,
    required_workers: slots,
    payable_amount: "5",
  });
  const submission = await asWorker<{ id: string }>("POST", `/api/tasks/${task.id}/submissions`, {
    submission_details: "Done: https://example.com/proof",
  });
  return { buyer, worker, asBuyer, asWorker, task, submission };
}

const toast = (page: Page, text: string) => page.getByText(text).first().waitFor();

describe("trust between buyers and workers (issue 18)", () => {
  it("a rejected worker appeals, the buyer upholds, the worker escalates, the admin overturns: paid once", async () => {
    const { buyer, worker, asBuyer, asWorker, submission } = await submittedWork(
      `Rate 5 logos ${Date.now()}`,
    );
    await asBuyer("POST", `/api/submissions/${submission.id}/reject`, { reason: "The ratings are missing" });
    const before = await coinsOf(asWorker);

    const workerView = await signedInPage(browser, server.url, worker, 375);
    await workerView.page.goto("/dashboard/my-submissions");
    await workerView.page.getByRole("button", { name: "Appeal" }).click();
    await workerView.page.getByLabel(/Your message/).fill("All five ratings are in the second link.");
    await workerView.page.getByRole("button", { name: "Send appeal" }).click();
    await toast(workerView.page, "Appeal sent. The buyer has been told.");
    await workerView.page.getByText("Appeal sent: waiting for the buyer").waitFor();

    const buyerView = await signedInPage(browser, server.url, buyer);
    await buyerView.page.goto("/dashboard/BuyersHome");
    await buyerView.page.getByText("All five ratings are in the second link.").waitFor();
    await shoot(buyerView.page, "appeals-to-answer");
    await buyerView.page.getByRole("button", { name: "Keep rejection" }).click();
    const dialog = buyerView.page.getByRole("dialog");
    await dialog.getByLabel("Your answer").fill("The second link shows another site.");
    await dialog.getByRole("button", { name: "Keep rejection" }).click();
    await toast(buyerView.page, "Rejection kept; the worker has your answer");
    await buyerView.context.close();

    await workerView.page.reload();
    await workerView.page
      .getByText("The buyer kept the rejection: The second link shows another site.")
      .waitFor();
    await workerView.page.getByRole("button", { name: "Escalate to admins" }).click();
    await toast(workerView.page, "Your appeal is with the admins; their decision is final");
    await workerView.page.getByText("Appeal with the admins").waitFor();

    const adminView = await signedInPage(browser, server.url, admin);
    await adminView.page.goto("/dashboard/appeals");
    await adminView.page.getByRole("button", { name: "Decide" }).first().click();
    const decision = adminView.page.getByRole("dialog");
    await decision.getByLabel("Overturn: approve and pay the worker").check();
    await decision.getByLabel(/Your answer/).fill("Both links show the ratings.");
    await shoot(adminView.page, "admin-appeal-decision");
    await decision.getByRole("button", { name: "Overturn and pay 5 coins" }).click();
    await toast(adminView.page, "Overturned: Wendy Worker was paid 5 coins");
    await adminView.context.close();

    expect(await coinsOf(asWorker)).toBe(before + 5);
    await workerView.page.reload();
    await workerView.page.getByText("Appeal accepted: 5 coins paid").waitFor();
    await shoot(workerView.page, "appeal-overturned");
    await workerView.context.close();
    expect(await coinsOf(asWorker)).toBe(before + 5);
  });

  it("a buyer blocks a worker from the review dialog; the worker no longer sees the buyer's tasks", async () => {
    const word = `zebrafish${Date.now()}`;
    const { buyer, worker, asBuyer } = await submittedWork(`Check a form ${word}`);
    await postTaskViaApi(asBuyer, { task_title: `Another task ${word}`, required_workers: "2" });

    const workerView = await signedInPage(browser, server.url, worker);
    await workerView.page.goto(`/dashboard/task-list?q=${word}`);
    await workerView.page.getByText(`Another task ${word}`).waitFor();

    const buyerView = await signedInPage(browser, server.url, buyer);
    await buyerView.page.goto("/dashboard/BuyersHome");
    await buyerView.page.getByRole("button", { name: "View details" }).click();
    await buyerView.page.getByRole("button", { name: "Block worker" }).click();
    const dialog = buyerView.page.getByRole("dialog");
    await dialog.getByLabel(/Private note/).fill("Sent the same proof to every task.");
    await dialog.getByRole("button", { name: "Block worker" }).click();
    await toast(buyerView.page, "Wendy Worker is blocked from your tasks");
    await buyerView.page.goto("/dashboard/blocked-workers");
    await buyerView.page.getByText("Sent the same proof to every task.").waitFor();
    await shoot(buyerView.page, "blocked-workers");
    await buyerView.context.close();

    await workerView.page.goto(`/dashboard/task-list?q=${word}`);
    await workerView.page.getByText("No open tasks match.").waitFor();
    expect(await workerView.page.getByText(`Another task ${word}`).count()).toBe(0);
    await workerView.context.close();
  });

  it("a buyer sends a bonus by double-clicking and pays once", async () => {
    const { buyer, asBuyer, asWorker } = await submittedWork(`Test an app ${Date.now()}`);
    const [buyerBefore, workerBefore] = [await coinsOf(asBuyer), await coinsOf(asWorker)];
    const buyerView = await signedInPage(browser, server.url, buyer, 375);
    await buyerView.page.goto("/dashboard/BuyersHome");
    await buyerView.page.getByRole("button", { name: "View details" }).click();
    await buyerView.page.getByText(/No decided work yet/).waitFor();
    await buyerView.page.getByRole("button", { name: "Send bonus" }).click();
    const dialog = buyerView.page.getByRole("dialog");
    await dialog.getByLabel(/Coins/).fill("5");
    await dialog.getByLabel(/Message/).fill("Thanks for the careful report");
    // Every request the double click makes carries the one key made when the dialog opened.
    const keys: string[] = [];
    buyerView.page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/bonuses")
        keys.push(request.headers()["idempotency-key"] ?? "");
    });
    await dialog.getByRole("button", { name: "Send bonus" }).dblclick();
    await toast(buyerView.page, "Sent a bonus of 5 coins to Wendy Worker");
    await buyerView.context.close();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await coinsOf(asBuyer)).toBe(buyerBefore - 5);
    expect(await coinsOf(asWorker)).toBe(workerBefore + 5);
    const notes = await asWorker<{ items: { message: string }[] }>("GET", "/api/notifications");
    expect(
      notes.items.filter((note) => note.message.startsWith("You received a bonus of 5 coins")).length,
    ).toBe(1);
  });

  it("a task that requires Silver: hidden from a new worker's list, and the details say why they cannot start it", async () => {
    const word = `heron${Date.now()}`;
    const buyer = await registerViaApi(server.url, "buyer", "Bashir Buyer");
    const worker = await registerViaApi(server.url, "worker", "Wendy Worker");
    const asBuyer = await apiSession(server.url, buyer);
    const task = await postTaskViaApi(asBuyer, {
      task_title: `Silver only ${word}`,
      required_workers: "2",
      min_level: "silver",
    });
    await postTaskViaApi(asBuyer, { task_title: `Open to all ${word}`, required_workers: "2" });

    const workerView = await signedInPage(browser, server.url, worker, 375);
    await workerView.page.goto(`/dashboard/task-list?q=${word}`);
    await workerView.page.getByText(`Open to all ${word}`).waitFor();
    await workerView.page.getByText("New buyer", { exact: false }).first().waitFor();
    expect(await workerView.page.getByText(`Silver only ${word}`).count()).toBe(0);

    await workerView.page.goto(`/dashboard/task-details/${task.id}`);
    await workerView.page.getByText("Requires Silver level").waitFor();
    await workerView.page.getByRole("button", { name: "Start task" }).click();
    await workerView.page.getByRole("heading", { name: "You cannot take this task" }).waitFor();
    await workerView.page.getByText(/requires Silver level or higher/).waitFor();
    expect(await workerView.page.getByRole("button", { name: "Submit" }).count()).toBe(0);
    await shoot(workerView.page, "not-qualified");
    await workerView.context.close();
  });
});
