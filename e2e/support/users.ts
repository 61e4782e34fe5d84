import sharp from "sharp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { freshTotpCode, totpSecretOf } from "../../apps/server/src/test/totp.ts";
import { startServerAndBrowser, stopServerAndBrowser } from "./browser.ts";
import type { RunningServer } from "./server.ts";

export interface E2eUser {
  email: string;
  password: string;
  name: string;
  /** With two-factor sign-in on: the authenticator's secret, to compute the sign-in's codes. */
  totpSecret?: string;
}

let sequence = 0;

/** Registers through the real API, as the register page does. */
export async function registerViaApi(
  baseUrl: string,
  role: "worker" | "buyer",
  name: string,
): Promise<E2eUser> {
  sequence += 1;
  const user = { email: `${role}${sequence}-${Date.now()}@example.com`, password: "Secret12", name };
  const photo = await sharp({
    create: { width: 96, height: 96, channels: 3, background: role === "worker" ? "#0ea5e9" : "#a855f7" },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("name", name);
  form.append("role", role);
  form.append("email", user.email);
  form.append("password", user.password);
  form.append("photo", new Blob([new Uint8Array(photo)], { type: "image/png" }), "photo.png");
  const response = await fetch(`${baseUrl}/api/register`, {
    method: "POST",
    body: form,
    headers: { origin: baseUrl },
  });
  if (response.status !== 201)
    throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return user;
}

/** A browser context signed in through the login page. */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  user: E2eUser,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, baseURL: baseUrl });
  const page = await context.newPage();
  await page.goto("/login");
  await submitSignIn(page, user.email, user.password);
  if (user.totpSecret) await submitTotp(page, user.totpSecret);
  await page.waitForURL(/\/dashboard/);
  return { context, page };
}

/** The sign-in's second step: the code an authenticator app would show now. */
export async function submitTotp(page: Page, secret: string) {
  await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
  await page.getByLabel("Code", { exact: true }).fill(await freshTotpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
}

/**
 * Turns two-factor sign-in on for `user` through the API, as the Security section does
 * (password, then a code), and keeps the secret on `user` for its later sign-ins.
 */
export async function turnOnTwoFactorViaApi(baseUrl: string, user: E2eUser) {
  const call = await apiSession(baseUrl, user);
  const { totpURI } = await call<{ totpURI: string }>("POST", "/api/auth/two-factor/enable", {
    password: user.password,
  });
  const secret = totpSecretOf(totpURI);
  await call("POST", "/api/auth/two-factor/verify-totp", { code: await freshTotpCode(secret) });
  user.totpSecret = secret;
}

/** Calls the API as a signed-in user, the way the web app does (cookie and same origin). */
export async function apiSession(baseUrl: string, user: E2eUser) {
  const signIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status}`);
  const cookiesOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((value) => value.split(";")[0] ?? "")
      // A cookie set empty is one the server expired.
      .filter((pair) => !pair.endsWith("="))
      .join("; ");
  let cookie = cookiesOf(signIn);
  if (((await signIn.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect) {
    if (!user.totpSecret) throw new Error(`${user.email} has two-factor on, and the test has no secret`);
    const second = await fetch(`${baseUrl}/api/auth/two-factor/verify-totp`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl, cookie },
      body: JSON.stringify({ code: await freshTotpCode(user.totpSecret) }),
    });
    if (!second.ok) throw new Error(`second step failed: ${second.status}`);
    cookie = cookiesOf(second);
  }
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const isForm = body instanceof FormData;
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        cookie,
        origin: baseUrl,
        ...(body && !isForm ? { "content-type": "application/json" } : {}),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}

export type ApiSession = Awaited<ReturnType<typeof apiSession>>;

/** The fields of the add-task form, as the API takes them in multipart. */
type TaskFields = Record<
  | "task_title"
  | "task_detail"
  | "required_workers"
  | "payable_amount"
  | "completion_date"
  | "submission_info",
  string
> &
  /** Who may take it (issue 18) and its category: absent requires nothing, or "other". */
  Partial<Record<"min_level" | "min_approval_rate" | "category", string>>;

/** A date `days` from today, as the task form sends it. */
export const daysFromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Posts a task as the buyer, as the add-task form does: the given fields over small defaults. */
export async function postTaskViaApi(asBuyer: ApiSession, fields: Partial<TaskFields> = {}) {
  const form = new FormData();
  const all: TaskFields = {
    task_title: "A small task",
    task_detail: "Do it.",
    required_workers: "1",
    payable_amount: "1",
    completion_date: daysFromNow(3),
    submission_info: "Proof",
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) form.append(name, value);
  const image = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#64748b" } })
    .png()
    .toBuffer();
  form.append("task_image", new Blob([new Uint8Array(image)], { type: "image/png" }), "t.png");
  return asBuyer<{ id: string }>("POST", "/api/tasks", form);
}

/** Buys a coin package with the sandbox's test card. */
export async function buyCoins(asBuyer: ApiSession, packageId = "coins-1000") {
  const { payment } = await asBuyer<{ payment: { id: string } }>("POST", "/api/payments", {
    package_id: packageId,
  });
  await asBuyer("POST", `/api/payments/${payment.id}/sandbox-confirm`, {
    card_number: "4242424242424242",
    exp_month: 12,
    exp_year: 2099,
    cvc: "123",
  });
}

/** Fills the sign-in form and sends it. */
export async function submitSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * The enclosing file's server with this admin, two-factor sign-in on (rule R30: admins need
 * it to move coins or change access), and a browser: `use` receives them once started in
 * beforeAll; both stop in afterAll.
 */
export function serverWithAdminPerFile(
  admin: E2eUser,
  use: (started: { server: RunningServer; browser: Browser }) => void,
) {
  let started: { server: RunningServer; browser: Browser } | undefined;
  beforeAll(async () => {
    started = await startServerAndBrowser({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
    await turnOnTwoFactorViaApi(started.server.url, admin);
    use(started);
  });
  afterAll(() => stopServerAndBrowser(started?.server, started?.browser));
}
