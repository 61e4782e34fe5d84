// The mixed load: browsing and searching, posting (by session and by API key), reserving and
// submitting with a screenshot, reviewing, appeals, bonuses, statements, saved searches, buying
// and withdrawing, as a marketplace's users do, against one running server. Used by `npm run load`.
import { readdirSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { ADMIN, buyCoins, call, dueInDays, imagePart, register, signIn, type Account } from "./support.ts";

export interface Sample {
  ms: number;
  status: number;
}

export interface MixResult {
  /** Every answer's time and status, by action. */
  samples: Map<string, Sample[]>;
  seconds: number;
  ledgerBalanced: boolean;
  /** CPU seconds spent during the mix (Linux; null elsewhere): the server process, and PostgreSQL's processes. */
  cpu: { server: number; database: number } | null;
}

/** CPU seconds (user and system) each process has used so far, from /proc; null off Linux. */
function cpuSecondsOf(pids: number[]): Map<number, number> | null {
  if (process.platform !== "linux") return null;
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      // After the command's parentheses: state is field 3, utime and stime are fields 14 and 15.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / 100); // USER_HZ is 100 on Linux
    } catch {
      // the process ended meanwhile
    }
  }
  return seconds;
}

/** CPU seconds used between two readings: a process that began meanwhile counts whole. */
function cpuUsed(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let used = 0;
  for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
  return used;
}

/**
 * The PostgreSQL backends serving `database` (their command line names it): the server's pool
 * keeps its connections for the whole mix, so their CPU is the database's work for it.
 */
const backendPidsOf = (database: string | undefined) =>
  database === undefined
    ? []
    : readdirSync("/proc")
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .filter((pid) => {
          try {
            const command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
            return command.startsWith("postgres: ") && command.includes(` ${database} `);
          } catch {
            return false;
          }
        });

/**
 * The first words of the titles the mix posts; each worker's saved search asks for one, so a
 * posting alerts a sixth of the workers (a marketplace's saved searches are narrower still).
 */
const TITLE_WORDS = ["Review", "Translate", "Survey", "Label", "Transcribe", "Test"];
/** Words a search asks for: words of the posted titles, and words no task has. */
const SEARCH_WORDS = ["review", "task", "email", "translate", "survey", "nothing"];

/**
 * Registers 4 buyers (each with an API key) and 24 workers (each with a saved search) on the
 * server at `base`, then runs the mix with `concurrency` clients, measuring the CPU of the
 * server process and of the PostgreSQL backends of its database (when it is on PostgreSQL)
 * meanwhile. The proportions follow a marketplace's day: mostly browsing and searching, then
 * the work loop (reserve, submit with a screenshot, review), then money and disputes.
 */
export async function runMix(
  server: { base: string; pid: number | undefined; database?: string },
  seconds: number,
  concurrency: number,
): Promise<MixResult> {
  const { base } = server;
  const buyers = await Promise.all(
    Array.from({ length: 4 }, async (_, index) => {
      const buyer = await register(base, "buyer", String(index));
      const created = await call(base, buyer.cookie, "POST", "/api/buyer/api-keys", { name: "load" });
      // A version before the buyer API has no keys: its buyers post with their session only.
      return { ...buyer, apiKey: typeof created.body.key === "string" ? created.body.key : null };
    }),
  );
  const workers = await Promise.all(
    Array.from({ length: 24 }, async (_, index) => {
      const worker = await register(base, "worker", String(index));
      // Alerts for the mix's own postings: a version before saved searches answers 404, and alerts nobody.
      await call(base, worker.cookie, "POST", "/api/me/saved-searches", {
        q: TITLE_WORDS[index % TITLE_WORDS.length],
        alert: { bell: true, mail: false, push: false },
      });
      return worker;
    }),
  );
  const admin = await signIn(base, ADMIN.email, ADMIN.password);
  const due = dueInDays(7);
  const withdrawals: string[] = [];
  const taskIds: string[] = [];
  /** Approved submissions a buyer may tip, and rejected ones their worker may appeal. */
  const approved: { id: string; buyer: Account }[] = [];
  const rejected: { id: string; worker: Account }[] = [];
  const samples = new Map<string, Sample[]>();
  const record = (action: string, sample: Sample) => {
    const list = samples.get(action);
    if (list) list.push(sample);
    else samples.set(action, [sample]);
  };

  async function timed(
    action: string,
    path: string,
    init: Omit<RequestInit, "headers"> & { cookie?: string; headers?: Record<string, string> } = {},
  ) {
    const started = performance.now();
    const headers: Record<string, string> = {
      ...(init.cookie ? { origin: base, cookie: init.cookie } : {}),
      ...init.headers,
    };
    if (typeof init.body === "string") headers["content-type"] = "application/json";
    const response = await fetch(`${base}${path}`, { ...init, headers });
    const text = await response.text();
    record(action, { ms: performance.now() - started, status: response.status });
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }
  const any = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  const taskForm = (title: string, withImage: boolean) => {
    const form = new FormData();
    for (const [name, value] of Object.entries({
      task_title: title,
      task_detail: "d",
      required_workers: "5",
      payable_amount: "2",
      completion_date: due,
      submission_info: "s",
    }))
      form.append(name, value);
    if (withImage) form.append("task_image", imagePart(), "t.png");
    return form;
  };
  /** Posts a task with the buyer's session or key; a buyer out of coins buys more. */
  async function postTask(action: string, buyer: (typeof buyers)[number] | undefined, byKey: boolean) {
    if (!buyer) return;
    const title = `${any(TITLE_WORDS)} task`;
    const result =
      byKey && buyer.apiKey
        ? await timed(action, "/api/tasks", {
            method: "POST",
            body: taskForm(title, false),
            headers: { authorization: `Bearer ${buyer.apiKey}`, "idempotency-key": randomUUID() },
          })
        : await timed(action, "/api/tasks", {
            method: "POST",
            body: taskForm(title, true),
            cookie: buyer.cookie,
          });
    if (result.status === 201) taskIds.push(String(result.body.id));
    if (result.status === 409) {
      const started = performance.now();
      await buyCoins(base, buyer);
      record("buy coins", { ms: performance.now() - started, status: 200 });
    }
  }
  /** The first task the worker may take, from their list. */
  async function firstTaskFor(worker: Account) {
    const list = await timed("worker tasks", "/api/worker/tasks?limit=5", { cookie: worker.cookie });
    return (list.body.items as { id: string }[] | undefined)?.[0];
  }

  const actions: [number, () => Promise<unknown>][] = [
    [25, () => timed("browse", `/api/tasks?sort=${any(["newest", "price_asc", "price_desc"])}&limit=20`)],
    [
      10,
      () =>
        timed(
          "search",
          `/api/tasks?q=${any(SEARCH_WORDS)}${Math.random() < 0.3 ? "&category=other" : ""}&min_reward=${any([1, 2, 5])}&limit=20`,
        ),
    ],
    [8, () => timed("task detail", `/api/tasks/${any(taskIds) ?? "00000000-0000-4000-8000-000000000000"}`)],
    [5, () => postTask("post task", any(buyers), false)],
    [5, () => postTask("post task by key", any(buyers), true)],
    [
      10,
      async () => {
        const worker = any(workers);
        const task = worker && (await firstTaskFor(worker));
        if (!worker || !task) return;
        const reserved = await timed("reserve", `/api/tasks/${task.id}/reservations`, {
          method: "POST",
          cookie: worker.cookie,
        });
        if (reserved.status !== 201) return;
        const form = new FormData();
        form.append("submission_details", "done, screenshot attached");
        form.append("attachments", imagePart(), "proof.png");
        await timed("submit with screenshot", `/api/tasks/${task.id}/submissions`, {
          method: "POST",
          body: form,
          cookie: worker.cookie,
        });
      },
    ],
    [
      5,
      async () => {
        const worker = any(workers);
        const task = worker && (await firstTaskFor(worker));
        if (!worker || !task) return;
        await timed("submit", `/api/tasks/${task.id}/submissions`, {
          method: "POST",
          body: JSON.stringify({ submission_details: "done" }),
          cookie: worker.cookie,
        });
      },
    ],
    [
      12,
      async () => {
        const buyer = any(buyers);
        if (!buyer) return;
        const queue = await timed("review queue", "/api/buyer/submissions?status=pending&limit=5", {
          cookie: buyer.cookie,
        });
        const submission = (queue.body.items as { id: string; worker_email?: string }[] | undefined)?.[0];
        if (!submission) return;
        const approve = Math.random() < 0.8;
        const decided = await timed(
          approve ? "approve" : "reject",
          `/api/submissions/${submission.id}/${approve ? "approve" : "reject"}`,
          {
            method: "POST",
            body: JSON.stringify({ reason: "The screenshot does not show the finished task" }),
            cookie: buyer.cookie,
          },
        );
        if (decided.status !== 200) return;
        if (approve) approved.push({ id: submission.id, buyer });
        else {
          const worker = workers.find((each) => each.email === submission.worker_email);
          if (worker) rejected.push({ id: submission.id, worker });
        }
      },
    ],
    [
      3,
      async () => {
        const appeal = rejected.shift();
        if (appeal)
          await timed("appeal", `/api/submissions/${appeal.id}/appeal`, {
            method: "POST",
            body: JSON.stringify({ message: "The screenshot shows the finished task: please look again" }),
            cookie: appeal.worker.cookie,
          });
      },
    ],
    [
      2,
      async () => {
        const tip = approved.shift();
        if (tip)
          await timed("bonus", "/api/bonuses", {
            method: "POST",
            body: JSON.stringify({ submission_id: tip.id, coins: 1, message: "Thanks" }),
            cookie: tip.buyer.cookie,
            headers: { "idempotency-key": randomUUID() },
          });
      },
    ],
    [5, () => timed("statement", "/api/me/statement?limit=20", { cookie: any(workers)?.cookie })],
    [4, () => timed("saved searches", "/api/me/saved-searches", { cookie: any(workers)?.cookie })],
    [
      3,
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
      3,
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

  const serverPids = server.pid === undefined ? [] : [server.pid];
  const cpuBefore = [cpuSecondsOf(serverPids), cpuSecondsOf(backendPidsOf(server.database))] as const;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) await pickAction()();
    }),
  );
  const cpuAfter = [cpuSecondsOf(serverPids), cpuSecondsOf(backendPidsOf(server.database))] as const;
  const ledger = (await (
    await fetch(`${base}/api/admin/ledger/check`, { headers: { cookie: admin } })
  ).json()) as {
    ok: boolean;
  };
  const serverCpu = cpuUsed(cpuBefore[0], cpuAfter[0]);
  const cpu =
    serverCpu === null || server.pid === undefined
      ? null
      : { server: serverCpu, database: cpuUsed(cpuBefore[1], cpuAfter[1]) ?? 0 };
  return { samples, seconds, ledgerBalanced: ledger.ok, cpu };
}

export interface ActionFigures {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Refusals (a slot taken meanwhile, coins spent): the mix's races, which it expects. */
  clientErrors: number;
  serverErrors: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Each action's figures over one or more runs (their samples pooled), and "ALL" over every action. */
export function figures(runs: MixResult[]): Map<string, ActionFigures> {
  const pooled = new Map<string, Sample[]>();
  for (const run of runs)
    for (const [action, list] of run.samples) pooled.set(action, [...(pooled.get(action) ?? []), ...list]);
  pooled.set("ALL", [...pooled.values()].flat());
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  return new Map(
    [...pooled].map(([action, list]) => {
      const sorted = list.map((sample) => sample.ms).sort((a, b) => a - b);
      return [
        action,
        {
          requests: list.length,
          perSecond: list.length / seconds,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          clientErrors: list.filter((sample) => sample.status >= 400 && sample.status < 500).length,
          serverErrors: list.filter((sample) => sample.status >= 500).length,
        },
      ];
    }),
  );
}
