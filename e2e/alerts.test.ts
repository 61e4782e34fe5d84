import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeProblems } from "./support/axe.ts";
import { startServerAndBrowser, stopServerAndBrowser } from "./support/browser.ts";
import { shoot } from "./support/screenshots.ts";
import type { RunningServer } from "./support/server.ts";
import { apiSession, postTaskViaApi, registerViaApi, signedInPage } from "./support/users.ts";

// Issue 36, the web side of saved searches: a worker saves the task list's search with phone
// alerts on, a buyer posts a matching task, and the bell, the push receiver and the Saved
// searches page hear of it; opening the search applies its filters and clears its count.

let server: RunningServer;
let browser: Browser;

/** The pushes the server sent to this device's (fake) push service. */
const pushes: { headers: IncomingHttpHeaders; bytes: number }[] = [];
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  receiver = createServer((request, response) => {
    let bytes = 0;
    request.on("data", (chunk: Buffer) => (bytes += chunk.length));
    request.on("end", () => {
      pushes.push({ headers: request.headers, bytes });
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/push`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await stopServerAndBrowser(server, browser);
});

/**
 * Chromium's PushManager reaches Google's push service, which this closed network lacks: the
 * page gets one that hands out a subscription to the test's receiver instead, with real keys
 * (so the server's encryption works) and kept in localStorage as a browser keeps its own.
 */
const fakePushService = (endpoint: string) => `(() => {
  const KEY = "e2e.fake-push";
  const encode = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  const decode = (text) => Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)).buffer;
  const make = (saved) => ({
    endpoint: saved.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: decode(saved.serverKey) },
    toJSON: () => ({ endpoint: saved.endpoint, expirationTime: null, keys: saved.keys }),
    unsubscribe: async () => { localStorage.removeItem(KEY); return true; },
  });
  PushManager.prototype.getSubscription = async function () {
    const saved = localStorage.getItem(KEY);
    return saved ? make(JSON.parse(saved)) : null;
  };
  PushManager.prototype.subscribe = async function (options) {
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const key = options.applicationServerKey;
    const saved = {
      endpoint: ${JSON.stringify(endpoint)},
      serverKey: typeof key === "string" ? key.replace(/=+$/, "") : encode(key),
      keys: {
        p256dh: encode(await crypto.subtle.exportKey("raw", pair.publicKey)),
        auth: encode(crypto.getRandomValues(new Uint8Array(16))),
      },
    };
    localStorage.setItem(KEY, JSON.stringify(saved));
    return make(saved);
  };
})();`;

const sidewaysOverflow = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");

/** Closes the toast on screen (the app shows one at a time), so a screenshot shows the page under it. */
async function dismissToasts(page: Page) {
  const close = page.locator(".Toastify__close-button");
  // It may leave by itself meanwhile: then there is nothing to click.
  if ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 5_000 })
      .catch(() => undefined);
  await expect.poll(() => page.locator(".Toastify__toast").count()).toBe(0);
}

/**
 * What every page of this file must be: one h1, nothing wider than the screen, axe clean once
 * a closing dialog and a toast have faded (mid-fade, axe reads their colours half drawn).
 */
async function expectSound(page: Page) {
  expect(await page.locator("h1").count()).toBe(1);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await expect.poll(() => axeProblems(page)).toEqual([]);
}

describe("saved searches in the web app (issue 36)", () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px a worker saves a search, hears of a matching task in the bell and by push, opens it and deletes it`, async () => {
      const word = width === 375 ? "giraffe" : "zebra";
      const worker = await registerViaApi(server.url, "worker", `Wanda Watch ${width}`);
      const buyer = await registerViaApi(server.url, "buyer", `Boris Post ${width}`);
      const asBuyer = await apiSession(server.url, buyer);
      const { context, page } = await signedInPage(browser, server.url, worker, width);
      await context.grantPermissions(["notifications"], { origin: server.url });
      await context.addInitScript({ content: fakePushService(receiverUrl) });

      // The task list's search, saved: the name comes from the search, the bell is on.
      await page.goto(`/dashboard/task-list?q=${word}&category=data_entry&min_reward=2`);
      await page.getByRole("heading", { name: "Available tasks", level: 1 }).waitFor();
      await page.getByRole("button", { name: "Save this search" }).click();
      const dialog = page.getByRole("dialog", { name: "Save this search" });
      await dialog.getByLabel("Name").waitFor();
      expect(await dialog.getByLabel("Name").inputValue()).toBe(`${word} in Data entry, at least 2 coins`);
      expect(await dialog.getByRole("checkbox", { name: "Bell" }).isChecked()).toBe(true);
      expect(await dialog.getByRole("checkbox", { name: "Mail" }).isChecked()).toBe(false);
      await expectSound(page);
      if (width === 1280) await shoot(page, "save-search-dialog");
      const name = `${word} jobs`;
      await dialog.getByLabel("Name").fill(name);
      // Phone asks for the permission (granted) and subscribes this device.
      await dialog.getByRole("checkbox", { name: "Phone" }).check();
      await expect.poll(() => dialog.getByRole("button", { name: "Save search" }).isEnabled()).toBe(true);
      expect(await dialog.getByRole("alert").count()).toBe(0);
      expect(await dialog.getByRole("checkbox", { name: "Phone" }).isChecked()).toBe(true);
      await dialog.getByRole("button", { name: "Save search" }).click();
      await page.getByText(`Search saved: ${name}`).first().waitFor();
      await dialog.waitFor({ state: "hidden" });
      await page.getByRole("button", { name: "Notifications" }).waitFor();

      // A matching task: the bell shows it without a reload, and the device gets one push.
      const title = `Label ${word} photos`;
      await postTaskViaApi(asBuyer, { task_title: title, category: "data_entry", payable_amount: "3" });
      await page.getByRole("button", { name: /Notifications, 1 unread/ }).waitFor({ timeout: 30_000 });
      await page.getByRole("button", { name: /Notifications, 1 unread/ }).click();
      await page.getByText(`New task matches "${name}": ${title}`).waitFor();
      await page.keyboard.press("Escape");
      await expect.poll(() => pushes.length, { timeout: 30_000 }).toBe(1);
      expect(pushes[0]!.headers["content-encoding"]).toBe("aes128gcm");
      expect(pushes[0]!.headers.authorization).toMatch(/^vapid t=/);
      pushes.length = 0;

      // The Saved searches page, from the menu: 1 new, the device's switch on.
      if (width === 1280) await page.getByRole("link", { name: "Saved searches" }).click();
      else await page.goto("/dashboard/saved-searches");
      await page.getByRole("heading", { name: "Saved searches", level: 1 }).waitFor();
      const item = page.getByRole("listitem", { name });
      await item.getByText("1 new").waitFor();
      await item.getByText(`“${word}” in Data entry, at least 2 coins`).waitFor();
      expect(await item.getByRole("checkbox", { name: "Phone" }).isChecked()).toBe(true);
      await expect
        .poll(() => page.getByRole("switch", { name: "Phone notifications on this device" }).isChecked())
        .toBe(true);
      await expectSound(page);
      if (width === 1280) {
        await dismissToasts(page);
        await shoot(page, "saved-searches");
      }

      // Opening it shows its tasks with its filters, and its count starts again from now.
      await item.getByRole("link", { name: `Show tasks for ${name}` }).click();
      await page.waitForURL(/\/dashboard\/task-list\?/);
      const address = new URL(page.url()).searchParams;
      expect([address.get("q"), address.get("category"), address.get("min_reward")]).toEqual([
        word,
        "data_entry",
        "2",
      ]);
      await page.getByRole("link", { name: title, exact: true }).waitFor();
      expect(await page.getByRole("searchbox", { name: "Search tasks" }).inputValue()).toBe(word);
      await page.goBack();
      await item.waitFor();
      await expect.poll(() => item.getByText("1 new").count()).toBe(0);

      // Mail too, changed in place and kept.
      // (clicked, not checked: the box shows what the server saved, a moment later)
      await item.getByRole("checkbox", { name: "Mail" }).click();
      await expect.poll(() => item.getByRole("checkbox", { name: "Mail" }).isChecked()).toBe(true);
      await page.reload();
      await expect.poll(() => item.getByRole("checkbox", { name: "Mail" }).isChecked()).toBe(true);

      // Renamed, then deleted after a question.
      await item.getByRole("button", { name: `Rename ${name}` }).click();
      const renamed = `${word} work`;
      await page.getByLabel("New name").fill(renamed);
      await page.getByRole("button", { name: "Save name" }).click();
      const renamedItem = page.getByRole("listitem", { name: renamed });
      await renamedItem.waitFor();
      await renamedItem.getByRole("button", { name: `Delete ${renamed}` }).click();
      const question = page.getByRole("alertdialog", { name: `Delete ${renamed}?` });
      await question.getByRole("button", { name: "Yes, delete it" }).click();
      await question.waitFor({ state: "hidden" });
      await page.getByText("No saved searches yet.").waitFor();
      expect(await page.getByRole("listitem", { name: renamed }).count()).toBe(0);
      await expectSound(page);
      if (width === 1280) {
        await dismissToasts(page);
        await shoot(page, "saved-searches-empty");
      }

      // The device's phone notifications, turned off from the page.
      await page.getByRole("switch", { name: "Phone notifications on this device" }).click();
      await page.getByText("Phone notifications off for this device").first().waitFor();
      await context.close();
    });
  }

  it("says where phone notifications are blocked, and leaves them out where the browser has no Push API", async () => {
    const worker = await registerViaApi(server.url, "worker", "Bea Blocked");
    const { context, page } = await signedInPage(browser, server.url, worker, 375);
    await context.addInitScript({
      content: `Object.defineProperty(Notification, "permission", { get: () => "denied" });
        Notification.requestPermission = async () => "denied";`,
    });
    await page.goto("/dashboard/saved-searches");
    await page.getByText("Blocked in your browser settings.", { exact: false }).waitFor();
    expect(await page.getByRole("switch", { name: "Phone notifications on this device" }).isDisabled()).toBe(
      true,
    );
    await page.goto("/dashboard/task-list?q=otter");
    await page.getByRole("button", { name: "Save this search" }).click();
    const dialog = page.getByRole("dialog", { name: "Save this search" });
    await dialog.getByText("Phone notifications are blocked in your browser settings.").waitFor();
    expect(await dialog.getByRole("checkbox", { name: "Phone" }).isDisabled()).toBe(true);
    await context.close();

    const { context: bare, page: barePage } = await signedInPage(browser, server.url, worker, 375);
    await bare.addInitScript({ content: "delete window.PushManager;" });
    await barePage.goto("/dashboard/saved-searches");
    await barePage.getByText("This browser cannot show phone notifications.", { exact: false }).waitFor();
    expect(await barePage.getByRole("switch", { name: "Phone notifications on this device" }).count()).toBe(
      0,
    );
    await barePage.goto("/dashboard/task-list?q=otter");
    await barePage.getByRole("button", { name: "Save this search" }).click();
    const bareDialog = barePage.getByRole("dialog", { name: "Save this search" });
    await bareDialog.getByRole("checkbox", { name: "Bell" }).waitFor();
    expect(await bareDialog.getByRole("checkbox", { name: "Phone" }).count()).toBe(0);
    await bare.close();
  });

  it("quiet hours are saved in the browser's time zone", async () => {
    const worker = await registerViaApi(server.url, "worker", "Quinn Quiet");
    const { context, page } = await signedInPage(browser, server.url, worker, 375);
    await page.goto("/dashboard/saved-searches");
    const quiet = page.getByRole("form", { name: "Quiet hours" });
    await quiet.getByLabel("From").waitFor();
    const zone = await page.evaluate<string>("Intl.DateTimeFormat().resolvedOptions().timeZone");
    expect(await quiet.getByLabel("Time zone").inputValue()).toBe(zone);
    await quiet.getByRole("switch", { name: "Quiet hours on" }).check();
    await quiet.getByLabel("From").fill("22:30");
    await quiet.getByLabel("To").fill("06:45");
    await quiet.getByRole("button", { name: "Save quiet hours" }).click();
    await page.getByText("Quiet from 22:30 to 06:45").first().waitFor();
    await page.reload();
    await expect.poll(() => quiet.getByLabel("From").inputValue()).toBe("22:30");
    expect(await quiet.getByLabel("To").inputValue()).toBe("06:45");
    expect(await quiet.getByRole("switch", { name: "Quiet hours on" }).isChecked()).toBe(true);
    // The same start and end is refused under the field, and nothing changes.
    await quiet.getByLabel("To").fill("22:30");
    await quiet.getByRole("button", { name: "Save quiet hours" }).click();
    await quiet.getByText("Quiet hours must start and end at different times").waitFor();
    await page.reload();
    await expect.poll(() => quiet.getByLabel("To").inputValue()).toBe("06:45");
    await context.close();
  });

  it("at the limit the save action explains it instead of failing", async () => {
    const worker = await registerViaApi(server.url, "worker", "Lola Limit");
    const asWorker = await apiSession(server.url, worker);
    for (let index = 1; index <= 20; index += 1)
      await asWorker("POST", "/api/me/saved-searches", { q: `word${index}` });
    const { context, page } = await signedInPage(browser, server.url, worker, 375);
    await page.goto("/dashboard/task-list?q=otter");
    // By keyboard: Enter opens the dialog, Escape closes it and the focus returns to the button.
    const save = page.getByRole("button", { name: "Save this search" });
    await save.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Save this search" });
    await dialog.getByText("You have 20 saved searches").waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await page.evaluate<string>("document.activeElement.textContent.trim()")).toBe("Save this search");
    await save.click();
    await dialog.getByText("You have 20 saved searches").waitFor();
    expect(await dialog.getByLabel("Name").count()).toBe(0);
    await dialog.getByRole("link", { name: "Go to your saved searches" }).waitFor();
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await dialog.waitFor({ state: "hidden" });
    await context.close();
  });
});
