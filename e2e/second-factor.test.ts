import { sql } from "drizzle-orm";
import { OAuth2Server } from "oauth2-mock-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../apps/server/src/db/client.ts";
import { freshTotpCode } from "../apps/server/src/test/totp.ts";
import { axeProblems } from "./support/axe.ts";
import { launchBrowser } from "./support/browser.ts";
import { confirmEmailViaOutbox } from "./support/outbox.ts";
import { shoot } from "./support/screenshots.ts";
import { startServer, type RunningServer } from "./support/server.ts";
import {
  apiSession,
  buyCoins,
  postTaskViaApi,
  registerViaApi,
  signedInPage,
  submitSignIn,
  submitTotp,
  turnOnTwoFactorViaApi,
  type E2eUser,
} from "./support/users.ts";

// Rule R30 in the browser: every way of signing in asks for the code (Google too), a session
// that began without one is confirmed inline before admin actions, and a payout on deletion is
// reviewed as a withdrawal is. Google's part is played by a local OpenID Connect provider.

const admin: E2eUser = { email: "warden@example.com", password: "Admin1234", name: "Wanda Warden" };
const google = new OAuth2Server();
let env: Record<string, string>;
let server: RunningServer;
let browser: Browser;
/** Who Google says is signing in. */
let googleProfile: { sub: string; email: string; name: string } | null = null;

beforeAll(async () => {
  await google.issuer.keys.generate("RS256");
  await google.start(0, "127.0.0.1");
  google.issuer.url = `http://127.0.0.1:${google.address().port}`;
  // Google vouches for the address, so its sign-in reaches the account of that (confirmed) address.
  google.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, { ...googleProfile, email_verified: true });
  });
  env = {
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    GOOGLE_CLIENT_ID: "taskmint-e2e-client",
    GOOGLE_CLIENT_SECRET: "taskmint-e2e-secret",
    GOOGLE_ISSUER_URL: google.issuer.url,
  };
  server = await startServer(env);
  browser = await launchBrowser();
  await turnOnTwoFactorViaApi(server.url, admin);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await google.stop();
});

const secret = () => admin.totpSecret ?? "";

/**
 * The admin's sessions as sessions made before rule R30 are: not marked as having passed a
 * second factor. The server is stopped for it (PGlite lives in its process) and started again
 * on the same data and port, so the browser's session cookie still works.
 */
async function unconfirmAdminSessions() {
  await server.kill();
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: server.dataDir });
  await database.db.execute(
    sql`update sessions set two_factor_verified = false
        where user_id = (select id from users where email = ${admin.email})`,
  );
  await database.close();
  server = await startServer(env, { dataDir: server.dataDir, port: Number(new URL(server.url).port) });
}

describe("second factor in the browser (rule R30)", () => {
  it("/login?second_step=1 opens the code step; going back shows the password form, still bound for the page asked for", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 900 }, baseURL: server.url });
    const page = await context.newPage();
    await page.goto("/login?second_step=1&from=%2Fprofile");
    await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
    expect(await page.evaluate<string>("document.activeElement?.id")).toBe("two-factor-code");
    expect(await axeProblems(page)).toEqual([]);
    await shoot(page, "login-second-step");

    await page.getByRole("button", { name: "Back to sign-in" }).click();
    await page.getByRole("heading", { name: "Sign in to your account" }).waitFor();
    expect(new URL(page.url()).search).toBe("");
    await submitSignIn(page, admin.email, admin.password);
    await submitTotp(page, secret());
    await page.waitForURL(/\/profile$/);
    await context.close();
  });

  it("Google sign-in with two-factor on asks for the code, then lands on the page asked for with a confirmed session", async () => {
    // A buyer with a confirmed address and two-factor on, who also signs in with Google.
    const gail = await registerViaApi(server.url, "buyer", "Gail Google");
    await confirmEmailViaOutbox(server.dataDir, gail.email);
    await turnOnTwoFactorViaApi(server.url, gail);
    googleProfile = { sub: "google-gail", email: gail.email, name: gail.name };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: server.url });
    const page = await context.newPage();
    await page.goto("/dashboard/purchase-coin");
    await page.waitForURL(/\/login$/);
    await page.getByRole("button", { name: "Google", exact: true }).click();
    await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
    expect(new URL(page.url()).searchParams.get("second_step")).toBe("1");
    // No session before the code.
    expect((await page.request.get("/api/me")).status()).toBe(401);

    await page.getByLabel("Code", { exact: true }).fill(await freshTotpCode(gail.totpSecret ?? ""));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/dashboard\/purchase-coin$/);
    const me = (await (await page.request.get("/api/me")).json()) as {
      user: { email: string };
      session: { two_factor_verified: boolean };
    };
    expect(me).toMatchObject({ user: { email: gail.email }, session: { two_factor_verified: true } });
    await context.close();
  });

  it("an admin whose session began without a code confirms one inline, then deletes users with a reviewed payout", async () => {
    // Rick earned 100 coins from one buyer who had just bought them, on a new account: three
    // signals, a high risk. Una never confirmed her address: she may not be paid.
    const buyer = await registerViaApi(server.url, "buyer", "Bea Buyer");
    const rick = await registerViaApi(server.url, "worker", "Rick Risky");
    await registerViaApi(server.url, "worker", "Una Unconfirmed");
    const asBuyer = await apiSession(server.url, buyer);
    await buyCoins(asBuyer);
    const task = await postTaskViaApi(asBuyer, { task_title: "Review our app", payable_amount: "100" });
    const asRick = await apiSession(server.url, rick);
    const submission = await asRick<{ id: string }>("POST", `/api/tasks/${task.id}/submissions`, {
      submission_details: "https://example.com/review",
    });
    await asBuyer("POST", `/api/submissions/${submission.id}/approve`, {});
    await confirmEmailViaOutbox(server.dataDir, rick.email);

    const { context, page } = await signedInPage(browser, server.url, admin);
    await unconfirmAdminSessions();
    // Profile's Security says so, and offers the same confirmation.
    await page.goto("/profile");
    const security = page.getByRole("note").filter({ hasText: "This session began without a code" });
    await security.getByRole("group", { name: "Confirm with a code from your authenticator app" }).waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await shoot(page, "profile-confirm-session");
    await page.goto("/dashboard/manage-users");
    // The page's notes: this one, and the banner asking the admin to confirm their address.
    const notice = page.getByRole("note").filter({ hasText: /authenticator app|two-factor/i });
    await notice
      .getByText(
        "This session began without a code from your authenticator app. Enter one to change roles or delete users.",
      )
      .waitFor();
    // Locked, the rows say how to unlock instead of offering controls that do nothing.
    await page.getByRole("link", { name: "Confirm this session to change" }).first().waitFor();
    expect(await page.getByLabel("Role of Rick Risky").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete Rick Risky" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Confirm this session to change" }).count()).toBeGreaterThan(
      0,
    );
    expect(await axeProblems(page)).toEqual([]);
    await shoot(page, "manage-users-confirm-session");

    await notice.getByLabel("Code", { exact: true }).fill(await freshTotpCode(secret()));
    await notice.getByRole("button", { name: "Verify" }).click();
    await expect.poll(() => notice.count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete Rick Risky" }).isDisabled()).toBe(false);

    // Una may not be paid: the dialog says so before anything is sent, and pay-out cannot go ahead.
    await page.getByRole("button", { name: "Delete Una Unconfirmed" }).click();
    const unpaid = page.getByRole("alertdialog", { name: "Delete Una Unconfirmed?" });
    await unpaid.getByRole("radio", { name: /Pay out/ }).check();
    await unpaid
      .getByText(
        "Una Unconfirmed has not confirmed their email address, so their coins cannot be paid out: forfeit them, or ask them to confirm it first.",
      )
      .waitFor();
    expect(await unpaid.getByRole("button", { name: "Delete user" }).isDisabled()).toBe(true);
    expect(await unpaid.getByLabel("Payout reference").count()).toBe(0);
    expect(await axeProblems(page)).toEqual([]);
    await shoot(page, "delete-user-unpayable");
    await unpaid.getByRole("button", { name: "Cancel" }).click();

    // Rick's payout is high-risk: the reasons show, and it needs a second confirmation.
    await page.getByRole("button", { name: "Delete Rick Risky" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete Rick Risky?" });
    await dialog.getByRole("radio", { name: /Pay out/ }).check();
    await dialog.getByText("High risk").waitFor();
    const review = (await dialog.textContent()) ?? "";
    expect(review).toContain("100% of their earnings (100 of 100 coins) came from one buyer, Bea Buyer");
    expect(review).toContain("Rick Risky's 110 coins will be recorded as paid out to them");
    await dialog.getByLabel("Payout reference").fill("BANK-2026-0781");
    expect(await axeProblems(page)).toEqual([]);
    await shoot(page, "delete-user-high-risk");
    await dialog.getByRole("button", { name: "Delete and pay anyway" }).click();
    await dialog.getByText("This payout looks high-risk; confirm again to pay it anyway").waitFor();
    expect(await page.getByRole("button", { name: "Delete Rick Risky" }).count()).toBe(1);
    await dialog.getByLabel("I have checked the reasons above and want to pay Rick Risky anyway.").check();
    await dialog.getByRole("button", { name: "Delete and pay anyway" }).click();
    await page.getByText("Rick Risky was deleted. 110 coins were recorded as paid out.").waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Delete Rick Risky" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete Una Unconfirmed" }).count()).toBe(1);

    // The server judges each action: two-factor turned off elsewhere, the next one is refused,
    // and the page, told so, locks with the way back.
    const elsewhere = await apiSession(server.url, admin);
    await elsewhere("POST", "/api/auth/two-factor/disable", { password: admin.password });
    await page.getByLabel("Role of Una Unconfirmed").selectOption("buyer");
    await page
      .getByText(
        "Turn on two-factor sign-in in your profile (Security) before moving coins or changing access",
      )
      .waitFor();
    await notice.getByText("Two-factor sign-in is off for your account.", { exact: false }).waitFor();
    expect(await notice.getByRole("link", { name: "Turn on two-factor sign-in" }).count()).toBe(1);
    await page.getByRole("link", { name: "Turn on two-factor to change" }).first().waitFor();
    expect(await page.getByLabel("Role of Una Unconfirmed").count()).toBe(0);
    expect(await page.getByRole("row", { name: /Una Unconfirmed/ }).textContent()).toContain("worker");
    expect(await axeProblems(page)).toEqual([]);
    await shoot(page, "manage-users-two-factor-off");
    await context.close();
  }, 180_000);
});
