// What the load and benchmark scripts share: a real server process, and users made through the API.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from "../e2e/support/server-node-flags.ts";
import { buildWhatChanged } from "../scripts/builds.mjs";

export const repoRoot = path.resolve(import.meta.dirname, "..");
export const ADMIN = { email: "bench-admin@example.com", password: "Admin1234" };
const TEST_CARD = { card_number: "4242424242424242", exp_month: 12, exp_year: 2099, cvc: "123" };

export interface RunningServer {
  base: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const freePort = () => 3900 + Math.floor(Math.random() * 90);

/**
 * Starts the compiled server (`apps/server/dist`, serving the web app's build) in production
 * mode, with `npm start`'s Node options and environment, on DATABASE_URL or on PGlite in
 * `dataDir` (a fresh temp dir by default). Builds first what is not built for production from
 * the current sources, as `npm start` would.
 */
export async function startServer(
  options: { databaseUrl?: string; dataDir?: string; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  buildWhatChanged({ ...process.env, NODE_ENV: "production" });
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  // With a reference port, the benchmark's own entry point: the production server plus the bare route.
  const entry = options.env?.BENCH_REFERENCE_PORT ? "bench-server.js" : "main.js";
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, `apps/server/dist/${entry}`], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...SERVER_ENVIRONMENT,
      NODE_ENV: "production",
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-00",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      DATABASE_URL: options.databaseUrl ?? "",
      DATA_DIR: options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "taskmint-bench-"))),
      SEED_DEMO: "false",
      AUTH_RATE_LIMIT: "0",
      LOG_LEVEL: "warn",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...options.env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let tries = 0; ; tries += 1) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // still starting
    }
    if (child.exitCode !== null || tries > 600) throw new Error("the server did not start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    base,
    process: child,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

export async function signIn(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in ${response.status}`);
  return cookiesOf(response);
}

export const photo = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#888888" } })
  .png()
  .toBuffer();
export const imagePart = () => new Blob([new Uint8Array(photo)], { type: "image/png" });

export interface Account {
  email: string;
  cookie: string;
}

export async function register(base: string, role: "worker" | "buyer", label: string): Promise<Account> {
  const email = `${role}-${label}-${Date.now()}@bench.test`;
  const form = new FormData();
  for (const [name, value] of Object.entries({ name: `${role} ${label}`, role, email, password: "Secret12" }))
    form.append(name, value);
  form.append("photo", imagePart(), "p.png");
  const response = await fetch(`${base}/api/register`, {
    method: "POST",
    body: form,
    headers: { origin: base },
  });
  if (response.status !== 201) throw new Error(`register ${response.status}`);
  return { email, cookie: cookiesOf(response) };
}

export async function call(base: string, cookie: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { origin: base, cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Buys the 1,000-coin package with the sandbox's test card. */
export async function buyCoins(base: string, buyer: Account): Promise<void> {
  const started = await call(base, buyer.cookie, "POST", "/api/payments", { package_id: "coins-1000" });
  const payment = started.body.payment as { id: string } | undefined;
  if (!payment) throw new Error(`payment ${started.status}`);
  const confirmed = await call(
    base,
    buyer.cookie,
    "POST",
    `/api/payments/${payment.id}/sandbox-confirm`,
    TEST_CARD,
  );
  if (confirmed.status !== 200) throw new Error(`payment confirm ${confirmed.status}`);
}

export const dueInDays = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Posts a task; answers the answer's status and body. */
export async function postTask(
  base: string,
  buyer: Account,
  fields: { required_workers: number; payable_amount: number },
) {
  const form = new FormData();
  const values = {
    task_title: "Bench task",
    task_detail: "Do the benchmarked thing",
    submission_info: "A link",
    completion_date: dueInDays(7),
  };
  for (const [name, value] of Object.entries({
    ...values,
    required_workers: String(fields.required_workers),
    payable_amount: String(fields.payable_amount),
  })) {
    form.append(name, value);
  }
  form.append("task_image", imagePart(), "t.png");
  const response = await fetch(`${base}/api/tasks`, {
    method: "POST",
    body: form,
    headers: { origin: base, cookie: buyer.cookie },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
