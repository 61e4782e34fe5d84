// The mixed load: browsing, posting, submitting, reviewing, buying and withdrawing, as a
// marketplace's users do, against one running server. Used by `npm run load`.
import { readdirSync, readFileSync } from "node:fs";
import { ADMIN, buyCoins, dueInDays, imagePart, register, signIn } from "./support.ts";

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
 * Registers 4 buyers and 24 workers on the server at `base`, then runs the mix with `concurrency`
 * clients, measuring the CPU of the server process and of the PostgreSQL backends of its
 * database (when it is on PostgreSQL) meanwhile.
 */
export async function runMix(
  server: { base: string; pid: number | undefined; database?: string },
  seconds: number,
  concurrency: number,
): Promise<MixResult> {
  const { base } = server;
  const buyers = await Promise.all(
    Array.from({ length: 4 }, (_, index) => register(base, "buyer", String(index))),
  );
  const workers = await Promise.all(
    Array.from({ length: 24 }, (_, index) => register(base, "worker", String(index))),
  );
  const admin = await signIn(base, ADMIN.email, ADMIN.password);
  const due = dueInDays(7);
  const withdrawals: string[] = [];
  const taskIds: string[] = [];
  const samples = new Map<string, Sample[]>();
  const record = (action: string, sample: Sample) => {
    const list = samples.get(action);
    if (list) list.push(sample);
    else samples.set(action, [sample]);
  };

  async function timed(action: string, path: string, init: RequestInit & { cookie?: string } = {}) {
    const started = performance.now();
    const headers: Record<string, string> = { origin: base, ...(init.cookie ? { cookie: init.cookie } : {}) };
    if (typeof init.body === "string") headers["content-type"] = "application/json";
    const response = await fetch(`${base}${path}`, { ...init, headers });
    const text = await response.text();
    record(action, { ms: performance.now() - started, status: response.status });
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
          record("buy coins", { ms: performance.now() - started, status: 200 });
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
        await timed("submit", `/api/tasks/${task.id}/submissions`, {
          method: "POST",
          body: JSON.stringify({ submission_details: "done" }),
          cookie: worker?.cookie,
        });
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
            {
              method: "POST",
              body: JSON.stringify({ reason: "no" }),
              cookie: buyer?.cookie,
            },
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
          serverErrors: list.filter((sample) => sample.status >= 500).length,
        },
      ];
    }),
  );
}
