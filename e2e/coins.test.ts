import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import { shoot } from "./support/screenshots.ts";
import type { RunningServer } from "./support/server.ts";
import { freshTotpCode } from "../apps/server/src/test/totp.ts";
import { linkFromOutbox, VERIFICATION_SUBJECT } from "./support/outbox.ts";
import { apiSession, postTaskViaApi, registerViaApi, signedInPage, type E2eUser } from "./support/users.ts";

const admin: E2eUser = { email: "admin@example.com", password: "Admin1234", name: "Admin" };
let server: RunningServer;
let browser: Browser;
let buyer: E2eUser;
let worker: E2eUser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser({
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  }));
  buyer = await registerViaApi(server.url, "buyer", "Cora Coins");
  worker = await registerViaApi(server.url, "worker", "Walt Withdraw");
});
afterAll(() => stopServerAndBrowser(server, browser));

const coinBalance = (page: Page) => page.getByTestId("coin-balance").first().textContent();

async function payWith(page: Page, cardNumber: string) {
  await page.goto("/dashboard/purchase-coin");
  await page.getByRole("button", { name: "Buy 150 coins for $10.00" }).click();
  await page.waitForURL(/\/dashboard\/payment\/process/);
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay $10.00" }).click();
}

describe("buying coins", () => {
  it("a declined card shows the provider's message and changes nothing", async () => {
    const { context, page } = await signedInPage(browser, server.url, buyer);
    await payWith(page, "4000 0000 0000 0002");
    await expect
      .poll(() => page.getByRole("alert").filter({ hasText: "Your card was declined." }).isVisible())
      .toBe(true);
    await shoot(page, "payment-declined");
    await expect.poll(() => coinBalance(page)).toContain("50");
    await context.close();
  });

  it("4242 4242 4242 4242 buys 150 coins, shown in the top bar and the history", async () => {
    const { context, page } = await signedInPage(browser, server.url, buyer);
    // The sandbox provider is active: nothing may be fetched from Stripe, not even its script.
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await page.goto("/dashboard/purchase-coin");
    await page.getByRole("heading", { name: "Purchase coins" }).waitFor();
    // Each package's price per coin, and the cheapest per coin marked.
    await expect
      .poll(() => page.getByTestId("per-coin").allTextContents())
      .toEqual(["$0.10 per coin", "$0.067 per coin", "$0.04 per coin", "$0.035 per coin"]);
    expect(await page.getByText("Best value", { exact: true }).count()).toBe(1);
    expect(
      await page.getByRole("article").filter({ hasText: "Best value" }).getByRole("heading").textContent(),
    ).toBe("1,000 coins");
    await shoot(page, "purchase-coin");
    await payWith(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/dashboard\/payment\/success/);
    await expect.poll(() => page.getByRole("heading", { name: "Payment successful" }).isVisible()).toBe(true);
    await expect.poll(() => coinBalance(page)).toContain("200");
    await shoot(page, "payment-success");
    await page.getByRole("main").getByRole("link", { name: "Payment history", exact: true }).click();
    await page.waitForURL(/\/dashboard\/payment\/history/);
    await expect.poll(() => page.getByRole("row").filter({ hasText: "completed" }).count()).toBe(1);
    await expect.poll(() => page.getByRole("row").filter({ hasText: "failed" }).count()).toBe(1);
    await shoot(page, "payment-history");
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => /(^|\.)stripe\.(com|network)\//.test(new URL(url).host + "/"))).toEqual(
      [],
    );
    await context.close();
  });
});

describe("withdrawing coins", () => {
  it("a worker with 200+ coins requests a withdrawal, an admin approves it, the worker sees it approved", async () => {
    // With the sign-up bonus only, the page shows how far the minimum is.
    {
      const { context, page } = await signedInPage(browser, server.url, worker);
      await page.goto("/dashboard/withdrawals");
      await page.getByText("10 of 200 coins", { exact: true }).waitFor();
      expect(await page.getByRole("progressbar", { name: "10 of 200 coins" }).getAttribute("value")).toBe(
        "10",
      );
      expect(await page.getByText("190 coins more to reach the minimum withdrawal.").isVisible()).toBe(true);
      await shoot(page, "withdrawals-progress");
      await context.close();
    }
    // The worker earns 250 coins the real way: a task, a submission, an approval.
    const asBuyer = await apiSession(server.url, buyer);
    const task = await postTaskViaApi(asBuyer, {
      task_title: "Write a product review",
      task_detail: "Write 200 words about our app.",
      payable_amount: "190",
      submission_info: "A link to your review",
    });
    const asWorker = await apiSession(server.url, worker);
    const submission = await asWorker<{ id: string }>("POST", `/api/tasks/${task.id}/submissions`, {
      submission_details: "https://example.com/review",
    });
    await asBuyer("POST", `/api/submissions/${submission.id}/approve`, {});

    const { context, page } = await signedInPage(browser, server.url, worker);
    // Rule R28: the address is confirmed before the first withdrawal. The dashboard says so
    // until the worker opens the mailed link (the dev outbox here).
    const banner = page.getByTestId("verify-email-banner");
    await banner.waitFor();
    expect(await banner.textContent()).toContain("before your first withdrawal");
    await page.goto(await linkFromOutbox(server.dataDir, worker.email, VERIFICATION_SUBJECT));
    await page.getByRole("heading", { name: "Your email address is confirmed" }).waitFor();
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await page.waitForURL(/\/dashboard\//);
    await page.goto("/dashboard/withdrawals");
    await expect.poll(() => coinBalance(page)).toContain("200");
    expect(await banner.count()).toBe(0);
    await page.getByLabel("Coins to withdraw").fill("200");
    await expect.poll(() => page.getByLabel("Amount in dollars").inputValue()).toBe("10.00");
    expect(await page.getByText("200 of 200 coins", { exact: true }).isVisible()).toBe(true);
    await page.getByLabel("Payment system").selectOption("Bkash");
    await page.getByLabel("Account number").fill("01712345678");
    await shoot(page, "withdrawals");
    await page.getByRole("button", { name: "Withdraw", exact: true }).click();
    // A confirmation first: amount in coins and dollars, method, account, and what happens next.
    const confirm = page.getByRole("dialog", { name: "Confirm your withdrawal" });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain("200 coins = $10.00");
    expect(await confirm.textContent()).toContain("Bkash");
    expect(await confirm.textContent()).toContain("01712345678");
    expect(await confirm.textContent()).toContain("held while an admin reviews your request");
    await shoot(page, "withdrawal-confirm");
    expect(await coinBalance(page)).toContain("200"); // nothing sent yet
    await confirm.getByRole("button", { name: "Send request" }).click();
    await expect
      .poll(() => page.getByText("Withdrawal request submitted successfully").isVisible())
      .toBe(true);
    await expect.poll(async () => (await coinBalance(page))?.trim()).toBe("0");

    // Second thoughts: the worker cancels it, the coins come back, and asks again.
    await page.getByRole("button", { name: "Cancel the withdrawal of 200 coins ($10.00)" }).click();
    const cancel = page.getByRole("alertdialog", { name: "Cancel your withdrawal of 200 coins ($10.00)?" });
    expect(await cancel.textContent()).toContain("200 coins return to your balance at once");
    await cancel.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect.poll(async () => (await coinBalance(page))?.trim()).toBe("200");
    await expect.poll(() => page.getByText("Cancelled by you, coins returned").isVisible()).toBe(true);
    await page.getByLabel("Coins to withdraw").fill("200");
    await page.getByLabel("Payment system").selectOption("Bkash");
    await page.getByLabel("Account number").fill("01712345678");
    await page.getByRole("button", { name: "Withdraw", exact: true }).click();
    await page
      .getByRole("dialog", { name: "Confirm your withdrawal" })
      .getByRole("button", { name: "Send request" })
      .click();
    await expect.poll(async () => (await coinBalance(page))?.trim()).toBe("0");
    await expect
      .poll(() => page.getByText("Insufficient coins. Minimum required: 200 coins").isVisible())
      .toBe(true);
    await expect
      .poll(() => page.getByRole("row").filter({ hasText: "Waiting for an admin to pay it" }).count())
      .toBe(1);

    // The admin has no two-factor sign-in yet (rules R27, R30): the page says why and how, and the
    // row has the way there where Approve would be.
    {
      const { context: adminContext, page: adminPage } = await signedInPage(browser, server.url, admin);
      await adminPage.goto("/dashboard/adminHome");
      const notice = adminPage.getByTestId("two-factor-needed");
      await notice.waitFor();
      expect(await notice.textContent()).toContain("Turn on two-factor sign-in to decide withdrawals");
      const row = adminPage.getByRole("row", { name: /Walt Withdraw/ });
      await row.getByRole("link", { name: "Turn on two-factor to decide" }).waitFor();
      expect(await row.getByRole("button", { name: "Approve" }).count()).toBe(0);
      // Enrolling in the browser: password, the QR code and its key, a code, the backup codes once.
      await adminPage.getByRole("link", { name: "Turn on two-factor sign-in" }).click();
      await adminPage.waitForURL(/\/profile/);
      await adminPage.getByLabel("Your password").fill(admin.password);
      await adminPage.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
      await adminPage.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
      const secret = (await adminPage.getByTestId("totp-secret").textContent()) ?? "";
      expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
      await adminPage.getByLabel("Code", { exact: true }).fill(await freshTotpCode(secret));
      await adminPage.getByRole("button", { name: "Confirm" }).click();
      const codes = adminPage.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
      await expect.poll(() => codes.count()).toBe(10);
      await shoot(adminPage, "profile-backup-codes");
      await adminPage.getByRole("button", { name: "I saved them" }).click();
      await adminPage.getByText("Signing in asks for a code from your authenticator app").waitFor();
      admin.totpSecret = secret;
      await adminContext.close();
    }
    // Turning two-factor on ended the admin's other sessions (rule R30): this one begins after.
    const otherAdminSession = await apiSession(server.url, admin);
    // Signing in again takes a code computed here, as the app would show it.
    const adminView = await signedInPage(browser, server.url, admin);
    await adminView.page.goto("/profile");
    await adminView.page.getByText("This device").waitFor();
    await shoot(adminView.page, "profile-security");
    // Ending the admin's session from the API script (no browser: "Unknown device") signs it out.
    await adminView.page.getByRole("button", { name: "Sign out Unknown device at 127.0.0.1" }).click();
    await adminView.page.getByRole("button", { name: "Yes, sign it out" }).click();
    await expect
      .poll(() =>
        adminView.page.getByRole("button", { name: "Sign out Unknown device at 127.0.0.1" }).count(),
      )
      .toBe(0);
    await expect(otherAdminSession("GET", "/api/me")).rejects.toThrow(/401/);

    await adminView.page.goto("/dashboard/adminHome");
    await expect.poll(() => adminView.page.getByText("Ledger balanced").isVisible()).toBe(true);
    const request = adminView.page.getByRole("row", { name: /Walt Withdraw/ });
    await expect.poll(() => request.isVisible()).toBe(true);
    // A new account paid by one buyer right after it bought coins: the signals say so.
    expect(await request.textContent()).toContain("High risk");
    expect(await request.textContent()).toContain(
      "100% of their earnings (190 of 190 coins) came from one buyer, Cora Coins",
    );
    await shoot(adminView.page, "admin-home");
    await request.getByRole("button", { name: "Approve" }).click();
    const pay = adminView.page.getByRole("dialog", { name: "Pay Walt Withdraw $10.00" });
    await pay.waitFor();
    expect(await pay.textContent()).toContain("Send $10.00 (200 coins) to Bkash 01712345678");
    await pay.getByLabel("Bkash transaction id").fill("8N7A6B5C4D");
    await shoot(adminView.page, "admin-pay-withdrawal");
    await pay.getByLabel("I have checked the reasons above and want to pay this withdrawal anyway.").check();
    await pay.getByRole("button", { name: "Pay anyway" }).click();
    await expect.poll(() => adminView.page.getByText("No withdrawals are waiting.").isVisible()).toBe(true);
    // Every withdrawal, paid ones included, is on the admins' Withdrawals page.
    await adminView.page.goto("/dashboard/admin-withdrawals");
    await adminView.page.getByLabel("Filter by status").selectOption("approved");
    await expect.poll(() => adminView.page.getByText("Reference: 8N7A6B5C4D").isVisible()).toBe(true);
    await adminView.context.close();

    await page.reload();
    const paid = page
      .getByRole("row")
      .filter({ hasText: /Paid · (just now|\d+ min ago)Reference: 8N7A6B5C4D/ });
    await expect.poll(() => paid.count()).toBe(1);
    expect(await page.getByText("Waiting for an admin to pay it").count()).toBe(0);

    // The statement tells the whole story, newest first, each line with the balance after it.
    await page.goto("/dashboard/statement");
    const rows = page.getByRole("row");
    await expect
      .poll(() => rows.nth(1).textContent())
      .toContain("Withdrawal ($10.00) to Bkash 01712345678: paid");
    const texts = await rows.allTextContents();
    expect(texts.slice(1).map((text) => text.replace(/^.*?(Withdrawal|Earning|Welcome)/, "$1"))).toEqual([
      // Each row also carries its phone layout's label and balance (shown below 768 px only).
      "WithdrawalWithdrawalWithdrawal ($10.00) to Bkash 01712345678: paidOut: −200Balance 0",
      "Withdrawal returnedWithdrawal returnedWithdrawal to Bkash 01712345678 cancelledIn: +200Balance 200",
      "WithdrawalWithdrawalWithdrawal ($10.00) to Bkash 01712345678: cancelled, coins returnedOut: −200Balance 0",
      'EarningEarningApproved work on "Write a product review"From Cora CoinsIn: +190Balance 200',
      "Welcome bonusWelcome bonusWelcome bonusIn: +10Balance 10",
    ]);
    await shoot(page, "statement");
    await context.close();

    // The buyer downloads their statement as a CSV file.
    const buyerView = await signedInPage(browser, server.url, buyer);
    await buyerView.page.goto("/dashboard/statement");
    const [download] = await Promise.all([
      buyerView.page.waitForEvent("download"),
      buyerView.page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^taskmint-statement-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path()) ?? "", "utf8");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("date,kind,description,counterparty,task_id,amount,balance_after");
    expect(lines.some((line) => /,task_funded,"?Funded ""Write a product review""/.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/,sign_up_bonus,Welcome bonus,,,50,50$/);
    await buyerView.context.close();
  }, 120_000);
});
