import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postBatch } from "../packages/buyer-client/examples/post-batch.ts";
import { axeProblems } from "./support/axe.ts";
import type { RunningServer } from "./support/server.ts";
import {
  apiSession,
  daysFromNow,
  registerViaApi,
  serverWithAdminPerFile,
  signedInPage,
} from "./support/users.ts";

// Issue 35, "Done when": a buyer creates a key, uploads a batch from the Developer page, and
// watches the webhook log fill as a worker submits; the receiver checks each delivery's signature.

const admin = { email: "developer-admin@example.com", password: "Admin1234", name: "Admin" };
let server: RunningServer;
let browser: Browser;

serverWithAdminPerFile(admin, (started) => ({ server, browser } = started));

/** What the test's webhook receiver got: each request's headers and raw body. */
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())));

const sidewaysOverflow = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");

const HEADER = "task_title,task_detail,submission_info,payable_amount,required_workers,completion_date";
const csv = (...rows: string[]) => Buffer.from([HEADER, ...rows].join("\n") + "\n");

/** Reads the one-time secret from its dialog, then closes it. */
async function takeSecret(page: Page, title: string) {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  await dialog.getByText("you won't see it again").waitFor();
  const secret = await dialog.getByTestId("one-time-secret").inputValue();
  await dialog.getByRole("button", { name: "I saved it" }).click();
  await dialog.waitFor({ state: "hidden" });
  return secret;
}

describe("the Developer page (issue 35)", () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px a buyer makes a key, posts a CSV batch, adds a webhook and watches it fill as a worker submits`, async () => {
      const buyer = await registerViaApi(server.url, "buyer", `Dev Buyer ${width}`);
      const { context, page } = await signedInPage(browser, server.url, buyer, width);
      await page.goto("/dashboard/developer");
      await page.getByRole("heading", { name: "Developer", level: 1 }).waitFor();
      await page.getByText("No API keys yet.").waitFor();
      expect(await axeProblems(page)).toEqual([]);

      // A key, shown once, then listed by its first characters only.
      await page.getByLabel("Key name").fill("Weekly sync");
      await page.getByRole("button", { name: "Create key" }).click();
      const key = await takeSecret(page, "Your new API key");
      expect(key).toMatch(/^tm_[A-Za-z0-9_-]{43}$/);
      const keys = page.getByRole("region", { name: "API keys" });
      await keys.getByText("Weekly sync", { exact: true }).waitFor();
      await keys.getByText("Never used").waitFor();
      expect(await keys.getByText(key).count()).toBe(0);
      await keys.getByText(`${key.slice(0, 11)}…`).waitFor();
      const withKey = (path: string) =>
        fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      expect((await withKey("/api/buyer/tasks")).status).toBe(200);

      // A webhook endpoint for every event, its secret shown once.
      await page.getByLabel("Endpoint URL").fill(receiverUrl);
      await page.getByRole("button", { name: "Add endpoint" }).click();
      const secret = await takeSecret(page, "Your endpoint's signing secret");
      expect(secret).toMatch(/^whsec_/);
      const endpoint = page.getByRole("listitem", { name: receiverUrl });
      await endpoint.getByText("active").waitFor();
      await endpoint.getByText("No deliveries yet.", { exact: false }).waitFor();

      // A batch with a bad row is refused whole, the problem named by row and field.
      const title = `Label photos ${width} ${Date.now()}`;
      const file = page.getByLabel("CSV file");
      await file.setInputFiles({
        name: "bad.csv",
        mimeType: "text/csv",
        buffer: csv(
          `${title} A,Label each photo.,The labels,2,1,${daysFromNow(5)}`,
          `${title} B,,The labels,2,1,2000-01-01`,
        ),
      });
      await page.getByRole("button", { name: "Check the file" }).click();
      const problems = page
        .getByRole("table")
        .filter({ has: page.getByRole("columnheader", { name: "Field" }) });
      await problems.waitFor();
      expect(await problems.getByRole("row").count()).toBeGreaterThan(1);
      await problems.getByText("task_detail").waitFor();
      expect(await page.getByRole("button", { name: /^Post \d+ tasks? for/ }).count()).toBe(0);

      // The fixed file: checked and priced, then posted after a question.
      await file.setInputFiles({
        name: "photos.csv",
        mimeType: "text/csv",
        buffer: csv(
          `${title} A,Label each photo.,The labels,2,1,${daysFromNow(5)}`,
          `${title} B,Label each photo again.,The labels,3,2,${daysFromNow(5)}`,
        ),
      });
      await page.getByRole("button", { name: "Check the file" }).click();
      const preview = page.getByTestId("batch-preview");
      await preview.getByText(`${title} B`).waitFor();
      expect(await axeProblems(page)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await page.getByRole("button", { name: "Post 2 tasks for 8 coins" }).click();
      const confirm = page.getByRole("dialog", { name: "Post 2 tasks?" });
      await confirm.getByRole("button", { name: "Yes, post them" }).click();
      await page.getByText("Posted 2 tasks for 8 coins").first().waitFor();
      const batches = page.getByRole("region", { name: "Batches" });
      await batches.getByText("photos.csv", { exact: true }).waitFor();
      await batches.getByRole("link", { name: /Results CSV/ }).waitFor();

      // The program's view, with the key: the batch's tasks, one of which a worker submits to.
      const tasks = (await (await withKey("/api/buyer/tasks?limit=50")).json()) as {
        items: { id: string; task_title: string }[];
      };
      const posted = tasks.items.filter((task) => task.task_title.startsWith(title));
      expect(posted).toHaveLength(2);
      const worker = await registerViaApi(server.url, "worker", `Dev Worker ${width}`);
      const asWorker = await apiSession(server.url, worker);
      const form = new FormData();
      form.append("submission_details", "Labelled all twenty photos.");
      await asWorker("POST", `/api/tasks/${posted[0]!.id}/submissions`, form);

      // The log fills without a reload, and the receiver got the same event, signed.
      const delivery = endpoint.getByRole("row").filter({ hasText: "submission.created" });
      await delivery.first().waitFor({ timeout: 30_000 });
      await delivery.getByText("succeeded").first().waitFor({ timeout: 30_000 });
      // DEVELOPER_SHOTS=<dir>: the page with a key, an endpoint and its log, and a batch, to look at.
      if (process.env.DEVELOPER_SHOTS)
        await page.screenshot({
          path: `${process.env.DEVELOPER_SHOTS}/developer-${width}.png`,
          fullPage: true,
        });
      const signed = received.filter((request) => request.body.includes(posted[0]!.id));
      expect(signed).toHaveLength(1);
      const event = new Webhook(secret).verify(
        signed[0]!.body,
        signed[0]!.headers as Record<string, string>,
      ) as {
        type: string;
      };
      expect(event.type).toBe("submission.created");
      expect(() =>
        new Webhook(`whsec_${Buffer.from("not the secret").toString("base64")}`).verify(
          signed[0]!.body,
          signed[0]!.headers as Record<string, string>,
        ),
      ).toThrow();

      // The buyer client's example posts a batch with the key; the page lists it as the key's.
      const fromProgram = await postBatch({
        baseUrl: server.url,
        apiKey: key,
        csv: new Blob([csv(`${title} C,Label one more photo.,The label,1,1,${daysFromNow(5)}`)]),
        fileName: "from-program.csv",
      });
      expect(fromProgram).toMatchObject({ posted: true, batch: { tasks_created: 1, total_cost: 1 } });

      // The key was used: the list says when, after a reload.
      await page.reload();
      await batches.getByRole("row").filter({ hasText: "from-program.csv" }).getByText("API key").waitFor();
      await keys.getByText("Weekly sync", { exact: true }).waitFor();
      expect(await keys.getByText("Never used").count()).toBe(0);
      expect(await axeProblems(page)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

      // Revoking asks first; the key is refused from then on.
      await keys.getByRole("button", { name: "Revoke Weekly sync" }).click();
      await page
        .getByRole("alertdialog", { name: "Revoke Weekly sync?" })
        .getByRole("button", { name: "Yes, revoke it" })
        .click();
      await keys.getByText("No API keys yet.").waitFor();
      expect((await withKey("/api/buyer/tasks")).status).toBe(401);
      await context.close();
    }, 180_000);
  }
});
