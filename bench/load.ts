// npm run load -- [--seconds 60] [--concurrency 16]
// A mixed load against a real server process (PGlite in a temp dir, or DATABASE_URL):
// browsing, posting, submitting, reviewing, buying and withdrawing. Prints the rate,
// the latency percentiles and the count of 5xx answers per action.
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" }, concurrency: { type: "string", default: "16" } } });
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const port = 3900 + Math.floor(Math.random() * 50);
const base = `http://127.0.0.1:${port}`;
const repoRoot = path.resolve(import.meta.dirname, "..");

const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
  cwd: repoRoot,
  env: {
    ...process.env,
    NODE_ENV: "production",
    AUTH_SECRET: "load-test-secret-load-test-secret-0000",
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: base,
    DATA_DIR: await mkdtemp(path.join(tmpdir(), "taskmint-load-")),
    SEED_DEMO: "false",
    AUTH_RATE_LIMIT: "0",
    LOG_LEVEL: "warn",
    ADMIN_EMAIL: "load-admin@example.com",
    ADMIN_PASSWORD: "Admin1234",
  },
  stdio: ["ignore", "inherit", "inherit"],
});
for (let tries = 0; ; tries += 1) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    // starting
  }
  if (tries > 300) throw new Error("server did not start");
  await new Promise((resolve) => setTimeout(resolve, 200));
}

async function session(email: string, password: string) {
  const response = await fetch(`${base}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify({ email, password }) });
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}
const photo = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#888888" } }).png().toBuffer();
async function register(role: "worker" | "buyer", index: number) {
  const email = `${role}${index}-${Date.now()}@load.test`;
  const form = new FormData();
  for (const [name, value] of Object.entries({ name: `${role} ${index}`, role, email, password: "Secret12" })) form.append(name, value);
  form.append("photo", new Blob([new Uint8Array(photo)], { type: "image/png" }), "p.png");
  const response = await fetch(`${base}/api/register`, { method: "POST", body: form, headers: { origin: base } });
  if (response.status !== 201) throw new Error(`register ${response.status}`);
  return { email, cookie: response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ") };
}

const buyers = await Promise.all(Array.from({ length: 4 }, (_, index) => register("buyer", index)));
const workers = await Promise.all(Array.from({ length: 24 }, (_, index) => register("worker", index)));
const admin = await session("load-admin@example.com", "Admin1234");
const due = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
const pending: string[] = [];
const withdrawals: string[] = [];
const taskIds: string[] = [];

interface Sample {
  ms: number;
  status: number;
}
const samples = new Map<string, Sample[]>();

async function timed(action: string, path: string, init: RequestInit & { cookie?: string } = {}) {
  const started = performance.now();
  const headers: Record<string, string> = { origin: base, ...(init.cookie ? { cookie: init.cookie } : {}) };
  if (typeof init.body === "string") headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, { ...init, headers });
  const text = await response.text();
  const list = samples.get(action) ?? [];
  list.push({ ms: performance.now() - started, status: response.status });
  samples.set(action, list);
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
const any = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];

const actions: [number, () => Promise<unknown>][] = [
  [40, () => timed("browse", `/api/tasks?sort=${any(["newest", "price_asc", "price_desc"])}&limit=20`)],
  [10, () => timed("task detail", `/api/tasks/${any(taskIds) ?? "00000000-0000-4000-8000-000000000000"}`)],
  [10, async () => {
      const buyer = any(buyers);
      const form = new FormData();
      for (const [name, value] of Object.entries({ task_title: "Load task", task_detail: "d", required_workers: "5", payable_amount: "2", completion_date: due, submission_info: "s" })) form.append(name, value);
      form.append("task_image", new Blob([new Uint8Array(photo)], { type: "image/png" }), "t.png");
      const result = await timed("post task", "/api/tasks", { method: "POST", body: form, cookie: buyer?.cookie });
      if (result.status === 201) taskIds.push(String(result.body.id));
      if (result.status === 409 && buyer) {
        const started = await timed("buy coins", "/api/payments", { method: "POST", body: JSON.stringify({ package_id: "coins-1000" }), cookie: buyer.cookie });
        const payment = started.body.payment as { id: string } | undefined;
        if (payment) await timed("buy coins", `/api/payments/${payment.id}/sandbox-confirm`, { method: "POST", body: JSON.stringify({ card_number: "4242424242424242", exp_month: 12, exp_year: 2099, cvc: "123" }), cookie: buyer.cookie });
      }
    }],
  [15, async () => {
      const worker = any(workers);
      const list = await timed("worker tasks", "/api/worker/tasks?limit=5", { cookie: worker?.cookie });
      const task = (list.body.items as { id: string }[] | undefined)?.[0];
      if (!task) return;
      const result = await timed("submit", `/api/tasks/${task.id}/submissions`, { method: "POST", body: JSON.stringify({ submission_details: "done" }), cookie: worker?.cookie });
      if (result.status === 201) pending.push(String(result.body.id));
    }],
  [15, async () => {
      const buyer = any(buyers);
      const queue = await timed("review queue", "/api/buyer/submissions?status=pending&limit=5", { cookie: buyer?.cookie });
      const submission = (queue.body.items as { id: string }[] | undefined)?.[0];
      if (submission) await timed("approve", `/api/submissions/${submission.id}/${Math.random() < 0.8 ? "approve" : "reject"}`, { method: "POST", body: JSON.stringify({ reason: "no" }), cookie: buyer?.cookie });
    }],
  [5, async () => {
      const worker = any(workers);
      const result = await timed("withdraw", "/api/withdrawals", { method: "POST", body: JSON.stringify({ withdrawal_coin: 200, payment_system: "Bkash", account_number: "01712345678" }), cookie: worker?.cookie });
      if (result.status === 201) withdrawals.push(String(result.body.id));
    }],
  [5, async () => {
      const id = withdrawals.shift();
      if (id) await timed("decide withdrawal", `/api/admin/withdrawals/${id}/approve`, { method: "POST", cookie: admin });
      else await timed("admin stats", "/api/admin/stats", { cookie: admin });
    }],
];
const totalWeight = actions.reduce((sum, [weight]) => sum + weight, 0);
const pickAction = () => {
  let roll = Math.random() * totalWeight;
  for (const [weight, run] of actions) {
    roll -= weight;
    if (roll <= 0) return run;
  }
  return actions[0]![1];
};

const end = Date.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (Date.now() < end) await pickAction()();
  }),
);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const all = [...samples.values()].flat();
const rows = [...samples.entries(), ["ALL", all] as const].map(([action, list]) => {
  const sorted = list.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    action,
    requests: list.length,
    "req/s": (list.length / seconds).toFixed(1),
    p50: percentile(sorted, 50).toFixed(1),
    p99: percentile(sorted, 99).toFixed(1),
    "5xx": list.filter((sample) => sample.status >= 500).length,
  };
});
console.table(rows);
const ledger = await (await fetch(`${base}/api/admin/ledger/check`, { headers: { cookie: admin } })).json();
console.log("ledger:", JSON.stringify(ledger));
server.kill("SIGTERM");
const failures = all.filter((sample) => sample.status >= 500).length;
process.exit(failures === 0 && (ledger as { ok: boolean }).ok ? 0 : 1);
