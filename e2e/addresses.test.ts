import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, stopServerAndBrowser } from "./support/browser.ts";
import { startServer, type RunningServer } from "./support/server.ts";
import { registerViaApi, submitSignIn } from "./support/users.ts";

// Issue 31, item 9: PUBLIC_URL left at its default (http://localhost:PORT) while the browser
// reaches the server at http://127.0.0.1:PORT, as on the machine itself or at a LAN address.
// NODE_ENV=development, as `npm start` runs by default, and without the test runner's TEST
// variable: under either the auth library skips its own origin check, which must accept the
// address too.

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ NODE_ENV: "development", TEST: "", PUBLIC_URL: "" });
  browser = await launchBrowser();
});
afterAll(() => stopServerAndBrowser(server, browser));

describe("the same origin, whatever the address (issue 31)", () => {
  it("registers, signs in and signs out at 127.0.0.1 while PUBLIC_URL names localhost", async () => {
    const port = new URL(server.url).port;
    expect(new URL(server.url).hostname).toBe("127.0.0.1");
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      servers: { url: string }[];
    };
    expect(document.servers[0]?.url).toBe(`http://localhost:${port}`);

    const worker = await registerViaApi(server.url, "worker", "Lena Loopback");
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    const answerTo = (path: string) => page.waitForResponse((response) => response.url().endsWith(path));
    await page.goto("/login");
    const signedIn = answerTo("/api/auth/sign-in/email");
    await submitSignIn(page, worker.email, worker.password);
    expect((await signedIn).status()).toBe(200);
    await page.waitForURL(/\/dashboard/);
    expect(new URL(page.url()).host).toBe(`127.0.0.1:${port}`);
    await expect.poll(() => page.getByTestId("coin-balance").first().textContent()).toContain("10");
    // Signed in, the auth library checks the Origin of every request that carries the cookie.
    await page.getByRole("button", { name: /account menu/i }).click();
    const signedOut = answerTo("/api/auth/sign-out");
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    expect((await signedOut).status()).toBe(200);
    await expect.poll(() => page.getByText("Signed out").isVisible()).toBe(true);
    await context.close();
  });
});
