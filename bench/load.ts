// npm run load -- [--seconds 60] [--concurrency 16]
// A mixed load against a real server process (PGlite in a temp dir, or DATABASE_URL):
// browsing, posting, submitting, reviewing, buying and withdrawing. Prints the rate,
// the latency percentiles and the count of 5xx answers per action.
import { parseArgs } from "node:util";
import { ADMIN, buyCoins, dueInDays, imagePart, register, signIn, startServer } from "./support.ts";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "60" }, concurrency: { type: "string", default: "16" } },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const server = await startServer({ databaseUrl: process.env.DATABASE_URL });
const { base } = server;

const buyers = await Promise.all(
  Array.from({ length: 4 }, (_, index) => register(base, "buyer", String(index))),
);
const workers = await Promise.all(
  Array.from({ length: 24 }, (_, index) => register(base, "worker", String(index))),
);
const admin = await signIn(base, ADMIN.email, ADMIN.password);
const due = dueInDays(7);
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
  [
    10,
    async () => {
      const buyer = any(buyers);
      const form = new FormData();
      for (const [name, value] of Object.entries({
        task_title: "Load task",
        task_detail: "d",
        required_workers: "5",
        payable_amount: "2",
        completion_date: due,
        submission_info: "s",
      }))
        form.append(name, value);
      form.append("task_image", imagePart(), "t.png");
      const result = await timed("post task", "/api/tasks", {
        method: "POST",
        body: form,
        cookie: buyer?.cookie,
      });
      if (result.status === 201) taskIds.push(String(result.body.id));
      if (result.status === 409 && buyer) {
        const started = performance.now();
        await buyCoins(base, buyer);
        samples.set("buy coins", [
          ...(samples.get("buy coins") ?? []),
          { ms: performance.now() - started, status: 200 },
        ]);
      }
    },
  ],
  [
    15,
    async () => {
      const worker = any(workers);
      const list = await timed("worker tasks", "/api/worker/tasks?limit=5", { cookie: worker?.cookie });
      const task = (list.body.items as { id: string }[] | undefined)?.[0];
      if (!task) return;
      const result = await timed("submit", `/api/tasks/${task.id}/submissions`, {
        method: "POST",
        body: JSON.stringify({ submission_details: "done" }),
        cookie: worker?.cookie,
      });
      if (result.status === 201) pending.push(String(result.body.id));
    },
  ],
  [
    15,
    async () => {
      const buyer = any(buyers);
      const queue = await timed("review queue", "/api/buyer/submissions?status=pending&limit=5", {
        cookie: buyer?.cookie,
      });
      const submission = (queue.body.items as { id: string }[] | undefined)?.[0];
      if (submission)
        await timed(
          "approve",
          `/api/submissions/${submission.id}/${Math.random() < 0.8 ? "approve" : "reject"}`,
          { method: "POST", body: JSON.stringify({ reason: "no" }), cookie: buyer?.cookie },
        );
    },
  ],
  [
    5,
    async () => {
      const worker = any(workers);
      const result = await timed("withdraw", "/api/withdrawals", {
        method: "POST",
        body: JSON.stringify({
          withdrawal_coin: 200,
          payment_system: "Bkash",
          account_number: "01712345678",
        }),
        cookie: worker?.cookie,
      });
      if (result.status === 201) withdrawals.push(String(result.body.id));
    },
  ],
  [
    5,
    async () => {
      const id = withdrawals.shift();
      if (id)
        await timed("decide withdrawal", `/api/admin/withdrawals/${id}/approve`, {
          method: "POST",
          cookie: admin,
        });
      else await timed("admin stats", "/api/admin/stats", { cookie: admin });
    },
  ],
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

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
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
await server.stop();
const failures = all.filter((sample) => sample.status >= 500).length;
process.exit(failures === 0 && (ledger as { ok: boolean }).ok ? 0 : 1);
