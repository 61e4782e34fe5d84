import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { confirmEmailViaOutbox } from "./support/outbox.ts";
import { shoot } from "./support/screenshots.ts";
import type { RunningServer } from "./support/server.ts";
import {
  apiSession,
  postTaskViaApi,
  registerViaApi,
  signedInPage,
  serverWithAdminPerFile,
  type E2eUser,
} from "./support/users.ts";

const admin: E2eUser = { email: "chief@example.com", password: "Admin1234", name: "Admin" };
let server: RunningServer;
let browser: Browser;

// Changing roles needs two-factor sign-in (rule R27).
serverWithAdminPerFile(admin, (started) => ({ server, browser } = started));

describe("administration", () => {
  it("an admin makes a worker a buyer; the user's menu changes on their next page load", async () => {
    const worker = await registerViaApi(server.url, "worker", "Molly Morph");
    const workerView = await signedInPage(browser, server.url, worker);
    const menu = workerView.page.getByRole("navigation", { name: "Dashboard menu" });
    await expect.poll(() => menu.getByRole("link", { name: "Task list" }).isVisible()).toBe(true);

    const adminView = await signedInPage(browser, server.url, admin);
    await adminView.page.goto("/dashboard/manage-users");
    await adminView.page.getByLabel("Search by name or email").fill("Molly");
    await adminView.page.getByRole("button", { name: "Search" }).click();
    await adminView.page.getByLabel("Role of Molly Morph").selectOption("buyer");
    await expect.poll(() => adminView.page.getByText("Molly Morph is now a buyer").isVisible()).toBe(true);
    await adminView.page.getByLabel("Search by name or email").fill("");
    await adminView.page.getByRole("button", { name: "Search" }).click();
    await shoot(adminView.page, "manage-users");

    await workerView.page.reload();
    await expect.poll(() => menu.getByRole("link", { name: "Add new task" }).isVisible()).toBe(true);
    await expect.poll(() => menu.getByRole("link", { name: "Task list" }).count()).toBe(0);
    await workerView.context.close();
    await adminView.context.close();
  });

  it("an admin deletes a task and the buyer sees the refund", async () => {
    const buyer = await registerViaApi(server.url, "buyer", "Rhea Refund");
    const asBuyer = await apiSession(server.url, buyer);
    await postTaskViaApi(asBuyer, {
      task_title: "Tag 20 photos",
      task_detail: "Tag each photo with three keywords.",
      required_workers: "4",
      payable_amount: "6",
      submission_info: "The keywords, one line per photo",
    });

    const buyerView = await signedInPage(browser, server.url, buyer);
    await expect
      .poll(async () => (await buyerView.page.getByTestId("coin-balance").first().textContent())?.trim())
      .toBe("26");

    const adminView = await signedInPage(browser, server.url, admin);
    await adminView.page.goto("/dashboard/manage-task");
    await adminView.page.getByRole("heading", { name: "Manage tasks" }).waitFor();
    await shoot(adminView.page, "manage-task");
    await adminView.page.getByRole("button", { name: "Delete Tag 20 photos" }).click();
    await adminView.page.getByRole("button", { name: "Yes, delete it" }).click();
    await expect
      .poll(() =>
        adminView.page.getByText("Task deleted. 24 coins were refunded to Rhea Refund.").isVisible(),
      )
      .toBe(true);
    await adminView.page.goto("/dashboard/adminHome");
    await expect
      .poll(() =>
        adminView.page
          .getByTestId("audit-entry")
          .filter({
            hasText: /deleted Rhea Refund’s task “Tag 20 photos”\. 24 coins were refunded to Rhea Refund\./,
          })
          .first()
          .isVisible(),
      )
      .toBe(true);
    await shoot(adminView.page, "admin-home-audit");
    await adminView.context.close();

    await buyerView.page.reload();
    await expect
      .poll(async () => (await buyerView.page.getByTestId("coin-balance").first().textContent())?.trim())
      .toBe("50");
    await buyerView.context.close();
  });

  it("an admin deletes a worker and chooses what happens to their coins", async () => {
    const worker = await registerViaApi(server.url, "worker", "Dora Departing");
    // Coins are paid out only to a confirmed address (rule R30), as a withdrawal is.
    await confirmEmailViaOutbox(server.dataDir, worker.email);
    const adminView = await signedInPage(browser, server.url, admin);
    const page = adminView.page;
    await page.goto("/dashboard/manage-users");
    await page.getByLabel("Search by name or email").fill("Dora Departing");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("button", { name: "Delete Dora Departing" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete Dora Departing?" });
    await expect
      .poll(() => dialog.getByText("Dora Departing's 10 coins will be forfeited to the platform").isVisible())
      .toBe(true);
    await dialog.getByRole("radio", { name: /Pay out/ }).check();
    // The payout's review, as a withdrawal's: a new account is a medium risk, paid without a second confirmation.
    await dialog.getByText("Medium risk").waitFor();
    expect(await dialog.textContent()).toContain("The account is less than a day old");
    expect(await dialog.getByRole("checkbox").count()).toBe(0);
    await dialog.getByRole("button", { name: "Delete user" }).click();
    await expect.poll(() => dialog.getByText("A payout reference is required").isVisible()).toBe(true);
    await dialog.getByLabel("Payout reference").fill("BANK-2026-0042");
    await expect
      .poll(() =>
        dialog.getByText("Dora Departing's 10 coins will be recorded as paid out to them").isVisible(),
      )
      .toBe(true);
    await shoot(page, "manage-users-delete");
    await dialog.getByRole("button", { name: "Delete user" }).click();
    await expect
      .poll(() =>
        page.getByText("Dora Departing was deleted. 10 coins were recorded as paid out.").isVisible(),
      )
      .toBe(true);
    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: worker.email, password: worker.password }),
    });
    expect(signIn.status).toBe(403);
    await adminView.context.close();
  });
});
