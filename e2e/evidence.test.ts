import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeProblems } from "./support/axe.ts";
import type { RunningServer } from "./support/server.ts";
import {
  apiSession,
  postTaskViaApi,
  registerViaApi,
  signedInPage,
  serverWithAdminPerFile,
  type E2eUser,
} from "./support/users.ts";

// Issue 34, points 4 to 7: decisions with their evidence, an audit trail people read, locked
// is not loading, and field errors named by their labels.

const admin: E2eUser = { email: "evidence-admin@example.com", password: "Admin1234", name: "Admin" };
let server: RunningServer;
let browser: Browser;

serverWithAdminPerFile(admin, (started) => ({ server, browser } = started));

/** A key: value pair as text ("status: approved"), what the audit trail no longer shows. */
const KEY_VALUE = /\b\w+: \S/;

/** The page's text outside every raw-record toggle. */
interface Node {
  cloneNode(deep: boolean): Node;
  querySelectorAll(selector: string): Iterable<{ remove(): void }>;
  textContent: string | null;
}
const textOutsideRawRecords = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((nodes: Node[]) =>
    nodes.map((node) => {
      const copy = node.cloneNode(true);
      for (const raw of copy.querySelectorAll("[data-testid='audit-raw']")) raw.remove();
      return copy.textContent ?? "";
    }),
  );

/** How far the page runs past the window's right edge, in px. */
const sidewaysOverflow = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");

/** An escalated appeal of a rejected submission sent with one screenshot. */
async function escalatedAppeal(title: string) {
  const buyer = await registerViaApi(server.url, "buyer", "Bashir Buyer");
  const worker = await registerViaApi(server.url, "worker", "Wendy Worker");
  const asBuyer = await apiSession(server.url, buyer);
  const asWorker = await apiSession(server.url, worker);
  const task = await postTaskViaApi(asBuyer, {
    task_title: title,
    task_detail: "Sign up with a test email and report any bug you meet.",
    submission_info: "The steps you took and a screenshot of the confirmation screen.",
    required_workers: "2",
    payable_amount: "8",
  });
  const proof = await sharp({ create: { width: 400, height: 240, channels: 3, background: "#16a34a" } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("submission_details", "Signed up; the confirmation mail never came.");
  form.append("attachments", new Blob([new Uint8Array(proof)], { type: "image/png" }), "proof.png");
  const submission = await asWorker<{ id: string }>("POST", `/api/tasks/${task.id}/submissions`, form);
  await asBuyer("POST", `/api/submissions/${submission.id}/reject`, { reason: "Which browser was it?" });
  await asWorker("POST", `/api/submissions/${submission.id}/appeal`, { message: "Chrome on Android." });
  await asBuyer("POST", `/api/submissions/${submission.id}/appeal/uphold`, {
    answer: "The screenshot shows the login page.",
  });
  await asWorker("POST", `/api/submissions/${submission.id}/appeal/escalate`);
  return { buyer, worker, submission };
}

describe("decisions with their evidence, in words people read (issue 34)", () => {
  it("at 375 px the admin decides an appeal with the proof image and nothing chosen, then reads it in the audit trail as a sentence", async () => {
    const title = `Find 5 emails ${Date.now()}`;
    await escalatedAppeal(title);
    const { context, page } = await signedInPage(browser, server.url, admin, 375);
    await page.goto("/dashboard/appeals");
    await page.getByRole("button", { name: `Decide the appeal on “${title}”` }).click();
    const dialog = page.getByRole("dialog", { name: `Decide the appeal on “${title}”` });
    // The evidence: what to submit, the work and its screenshot, both sides' words, both records.
    await dialog.getByText("The steps you took and a screenshot of the confirmation screen.").waitFor();
    await dialog.getByText("Signed up; the confirmation mail never came.").waitFor();
    await dialog.getByText("Which browser was it?").waitFor();
    await dialog.getByText("Chrome on Android.").waitFor();
    await dialog.getByText("The screenshot shows the login page.").waitFor();
    await dialog.getByText(/New buyer|Approves/).waitFor();
    const proof = dialog.getByRole("list", { name: "Screenshots" }).locator("img").first();
    await proof.scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        proof.evaluate((image: { complete: boolean; naturalWidth: number }) =>
          image.complete ? image.naturalWidth : 0,
        ),
      )
      .toBeGreaterThan(0);
    // Nothing is chosen for the admin: the final decision is theirs to make.
    const choices = dialog.getByRole("radio");
    expect(await choices.count()).toBe(2);
    for (const choice of await choices.all()) expect(await choice.isChecked()).toBe(false);
    await dialog.getByRole("button", { name: "Send decision" }).click();
    await dialog.getByText("Choose whether to keep the rejection or overturn it").waitFor();
    expect(await axeProblems(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: "/tmp/partc/e2e-appeal-dialog-375.png", fullPage: false });

    await dialog.getByLabel(/Overturn: approve and pay the worker/).check();
    await dialog.getByLabel("Your answer (both sides read it)").fill("The steps are complete.");
    await dialog.getByRole("button", { name: "Overturn and pay 8 coins" }).click();
    await page.getByText("Overturned: Wendy Worker was paid 8 coins").first().waitFor();

    // The audit trail: a sentence naming the people and the task, no key: value lists outside
    // the raw record, which opens on demand.
    await page.goto("/dashboard/adminHome");
    const entry = page.getByTestId("audit-entry").filter({ hasText: title }).first();
    await entry.waitFor();
    expect(await entry.textContent()).toContain(
      `Admin overturned Bashir Buyer’s rejection of Wendy Worker’s work on “${title}”. 8 coins were paid from`,
    );
    for (const text of await textOutsideRawRecords(page, "[data-testid='audit-entry']"))
      expect(text).not.toMatch(KEY_VALUE);
    const raw = entry.getByTestId("audit-raw");
    expect(await raw.locator("pre").isVisible()).toBe(false);
    await raw.getByText("Raw record").click();
    expect(await raw.locator("pre").textContent()).toContain('"appeal": "overturned"');
    expect(await axeProblems(page)).toEqual([]);
    await entry.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "/tmp/partc/e2e-audit-375.png", fullPage: false });
    await context.close();
  }, 120_000);

  it("an admin without two-factor sees why and how, not a greyed button", async () => {
    const newcomer = await registerViaApi(server.url, "buyer", "Nadia Newadmin");
    const asAdmin = await apiSession(server.url, admin);
    const { user } = await (
      await apiSession(server.url, newcomer)
    )<{ user: { id: string } }>("GET", "/api/me");
    await asAdmin("PATCH", `/api/admin/users/${user.id}`, { role: "admin" });
    // An appeal waiting, so the appeals page has a row to lock.
    await escalatedAppeal(`Locked appeal ${Date.now()}`);

    for (const width of [375, 1280]) {
      const { context, page } = await signedInPage(browser, server.url, newcomer, width);
      for (const [path, toDo] of [
        ["/dashboard/adminHome", "decide withdrawals"],
        ["/dashboard/manage-users", "change roles or delete users"],
        ["/dashboard/appeals", "decide appeals"],
      ] as const) {
        await page.goto(path);
        const notice = page.getByTestId("two-factor-needed");
        await notice.waitFor();
        // The title shows as the phone's one line, or above the rest on wider screens.
        expect(await notice.textContent()).toContain(`Turn on two-factor sign-in to ${toDo}`);
        // The rows say it where the controls would be, and lead to Profile > Security.
        if (path === "/dashboard/manage-users") {
          const locked = page.getByRole("link", { name: "Turn on two-factor to change" }).first();
          await locked.waitFor();
          expect(await locked.getAttribute("href")).toBe("/profile#two-factor");
          expect(await page.getByRole("combobox", { name: /^Role of / }).count()).toBe(0);
        }
        if (path === "/dashboard/appeals") {
          await page.getByRole("link", { name: "Turn on two-factor to decide" }).first().waitFor();
          expect(await page.getByRole("button", { name: /^Decide the appeal/ }).count()).toBe(0);
        }
        expect(await page.locator("button:disabled .loading").count()).toBe(0);
        expect(await axeProblems(page)).toEqual([]);
        expect(await sidewaysOverflow(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
      }
      await page.goto("/dashboard/manage-users");
      await page.getByRole("link", { name: "Turn on two-factor to change" }).first().waitFor();
      await page.screenshot({ path: `/tmp/partc/e2e-locked-users-${width}.png`, fullPage: false });
      await context.close();
    }
  }, 120_000);

  it("Add task's errors use the fields' labels", async () => {
    const buyer = await registerViaApi(server.url, "buyer", "Bella Buyer");
    const { context, page } = await signedInPage(browser, server.url, buyer, 375);
    await page.goto("/dashboard/add-tasks");
    await page.getByRole("button", { name: "Add task" }).click();
    for (const message of [
      "Task title is required",
      "Task details are required",
      "What to submit is required",
      "Number of workers must be at least 1",
      "Pay per worker must be at least 1 coin",
    ])
      await page.getByText(message).first().waitFor();
    const text = (await page.locator("main").textContent()) ?? "";
    for (const internal of ["Required workers", "Payable amount", "Submission info", "Task detail is"])
      expect(text).not.toContain(internal);
    await page.getByText("Number of workers must be at least 1").scrollIntoViewIfNeeded();
    await page.screenshot({ path: "/tmp/partc/e2e-addtask-errors-375.png", fullPage: false });
    await context.close();
  }, 60_000);

  // EVIDENCE_SHOTS=<dir>: the views of this file at 375 and 1280 px, light and dark, to look at.
  it.runIf(process.env.EVIDENCE_SHOTS)(
    "shoots the views to look at",
    async () => {
      const dir = process.env.EVIDENCE_SHOTS ?? "";
      const title = `Look at ${Date.now()}`;
      await escalatedAppeal(title);
      const newcomer = await registerViaApi(server.url, "buyer", "Lola Locked");
      const asAdmin = await apiSession(server.url, admin);
      const { user } = await (
        await apiSession(server.url, newcomer)
      )<{ user: { id: string } }>("GET", "/api/me");
      await asAdmin("PATCH", `/api/admin/users/${user.id}`, { role: "admin" });
      for (const theme of ["light", "dark"] as const)
        for (const width of [375, 1280]) {
          const shot = (page: Page, name: string, fullPage = false) =>
            page.screenshot({ path: `${dir}/${name}-${width}-${theme}.png`, fullPage });
          const { context, page } = await signedInPage(browser, server.url, admin, width);
          await page.emulateMedia({ colorScheme: theme });
          await page.goto("/dashboard/appeals");
          await page.getByRole("button", { name: `Decide the appeal on “${title}”` }).click();
          const dialog = page.getByRole("dialog");
          await dialog.getByText("Chrome on Android.").waitFor();
          await page.waitForTimeout(400);
          await shot(page, "appeal-dialog");
          await dialog.getByRole("radio").first().scrollIntoViewIfNeeded();
          await shot(page, "appeal-dialog-choices");
          await page.goto("/dashboard/adminHome");
          await page.getByTestId("audit-entry").first().scrollIntoViewIfNeeded();
          await shot(page, "audit");
          await context.close();
          const locked = await signedInPage(browser, server.url, newcomer, width);
          await locked.page.emulateMedia({ colorScheme: theme });
          for (const path of ["adminHome", "manage-users", "appeals"]) {
            await locked.page.goto(`/dashboard/${path}`);
            await locked.page.getByTestId("two-factor-needed").waitFor();
            await locked.page.waitForTimeout(300);
            await shot(locked.page, `locked-${path}`);
          }
          await locked.context.close();
        }
    },
    300_000,
  );
});
