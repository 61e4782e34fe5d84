// npm run bench -- [--database-url URL | --data-dir DIR | --seed-tasks N] [--seconds 10] [--connections 16]
//                   [--writes 3000] [--json out.json] [--baseline earlier.json]
// Starts the real server on the given database and measures the routes that matter with
// autocannon: each read for --seconds, then submit and approve over --writes fresh
// submissions. Prints requests/s, p50, p99 and errors per route, the server's peak
// memory, the ratio of the public list to the bare reference route (the same SQL with
// no framework work), and, with --baseline, each p50 against an earlier run.
// Without a database it seeds --seed-tasks (default 10,000) into a fresh PGlite.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http";
import { cpus, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { openDatabase } from "../apps/server/src/db/client.ts";
import { measureWebhookDeliveries } from "./webhook-deliveries.ts";
import { measureSavedSearchAlerts } from "./saved-search-alerts.ts";
import { queryRows } from "../apps/server/src/bench/query-rows.ts";
import { encodeCursor } from "../apps/server/src/lib/keyset.ts";
import {
  ADMIN,
  buyCoins,
  call,
  dueInDays,
  postTask,
  register,
  repoRoot,
  signIn,
  startServer,
  type Account,
} from "./support.ts";

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    "data-dir": { type: "string" },
    "seed-tasks": { type: "string", default: "10000" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "16" },
    writes: { type: "string", default: "3000" },
    json: { type: "string" },
    baseline: { type: "string" },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const writes = Number(values.writes);
const databaseUrl = values["database-url"] ?? process.env.DATABASE_URL;

// PGlite: seed a fresh data directory first, through the same script users run.
let dataDir = values["data-dir"];
if (!databaseUrl && !dataDir) {
  dataDir = await mkdtemp(path.join(tmpdir(), "taskmint-bench-"));
  const tasks = values["seed-tasks"];
  console.log(`Seeding ${tasks} tasks into PGlite at ${dataDir} ...`);
  execFileSync(
    "npm",
    ["run", "-s", "seed:large", "--", "--tasks", tasks, "--users", String(Math.max(10, Number(tasks) / 10))],
    {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      stdio: "inherit",
    },
  );
}

// Before the server owns the database: its size, and a cursor into the middle of each order.
const takeable =
  "status = 'open' and required_workers > 0 and deleted_at is null and completion_date >= current_date";
const orders = {
  newest: "created_at desc, id desc",
  price_asc: "payable_amount asc, id asc",
  price_desc: "payable_amount desc, id desc",
  pay_per_hour: "pay_rate desc, id desc",
  ending_soon: "completion_date asc, id asc",
} as const;
// Counting a million tasks and the cursors' offsets into them are long statements: no statement timeout.
const database = await openDatabase({ databaseUrl, dataDir: dataDir ?? null, statementTimeoutMs: 0 });
await database.migrate();
const [[taskCount]] = (await queryRows(database, "select count(*)::int from tasks", [])) as [[number]];
const [[openCount]] = (await queryRows(
  database,
  `select count(*)::int from tasks where ${takeable}`,
  [],
)) as [[number]];
const deepCursors: Record<string, string> = {};
for (const [sort, order] of Object.entries(orders)) {
  const [row] = (await queryRows(
    database,
    `select created_at, payable_amount, pay_rate, to_char(completion_date, 'YYYY-MM-DD'), id
       from tasks where ${takeable} order by ${order} offset $1 limit 1`,
    [Math.floor(openCount / 2)],
  )) as [Date, number, number, string, string][];
  const cursorValue =
    row &&
    {
      newest: new Date(row[0]).toISOString(),
      price_asc: row[1],
      price_desc: row[1],
      pay_per_hour: row[2],
      ending_soon: row[3],
    }[sort as keyof typeof orders];
  if (row && cursorValue !== undefined) deepCursors[sort] = encodeCursor({ value: cursorValue, id: row[4] });
}
const sampleTaskIds = (
  (await queryRows(database, `select id from tasks where ${takeable} order by id offset $1 limit 100`, [
    Math.floor(openCount / 3),
  ])) as [string][]
).map(([id]) => id);
// On PostgreSQL the benchmark keeps a connection to count each route's sequential scans, per
// table, and the rows they read: a scan that stops at a LIMIT reads a small part of its table.
type ScanCounts = Map<string, { scans: number; read: number; rows: number }>;
async function sequentialScans(): Promise<ScanCounts | null> {
  if (database.kind !== "postgres") return null;
  // Backends report their table statistics at most once a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const counts = (await queryRows(
    database,
    "select relname, seq_scan::int, seq_tup_read::float8, n_live_tup::int from pg_stat_user_tables",
    [],
  )) as [string, number, number, number][];
  return new Map(counts.map(([table, scans, read, rows]) => [table, { scans, read, rows }]));
}
/**
 * "sessions (40 rows) x 1200" for each table scanned during a run, with "reading 1% each" when
 * the scans of a large table read less than all of it on average; "none" when no table was scanned.
 */
function scannedTables(before: ScanCounts | null, after: ScanCounts | null): string | null {
  if (!before || !after) return null;
  const scanned = [...after].flatMap(([table, { scans, read, rows }]) => {
    const more = scans - (before.get(table)?.scans ?? 0);
    if (more <= 0) return [];
    const share = (read - (before.get(table)?.read ?? 0)) / more / Math.max(rows, 1);
    const part =
      rows >= 1000 && share < 0.995
        ? `, reading ${share < 0.01 ? "under 1" : Math.round(share * 100)}% each`
        : "";
    return [`${table} (${rows} rows) x ${more}${part}`];
  });
  return scanned.length > 0 ? scanned.join(", ") : "none";
}
if (database.kind === "pglite") await database.close();

const referencePort = 4000 + Math.floor(Math.random() * 90);
const server = await startServer({
  databaseUrl,
  dataDir,
  env: { BENCH_REFERENCE_PORT: String(referencePort) },
});
const { base } = server;
/** The server's own memory figure from /proc: resident now (VmRSS) or at its highest (VmHWM). */
const serverMemoryMb = (field: "VmRSS" | "VmHWM") =>
  Math.round(
    Number(
      new RegExp(`${field}:\\s+(\\d+)`).exec(
        readFileSync(`/proc/${server.process.pid}/status`, "utf8"),
      )?.[1] ?? 0,
    ) / 1024,
  );
// Idle: started, answering, nothing asked yet.
await new Promise((resolve) => setTimeout(resolve, 3000));
const idleMemoryMb = serverMemoryMb("VmRSS");
// Whatever happens below, the server does not outlive the benchmark.
process.on("exit", () => server.process.kill("SIGKILL"));
console.log(
  `Server on ${base} (${databaseUrl ? "PostgreSQL" : "PGlite"}): ${taskCount} tasks, ${openCount} open`,
);

// Fresh accounts: a buyer with `tasks` tasks, and workers who will each submit to every one of them.
const admin = await signIn(base, ADMIN.email, ADMIN.password);
const buyer = await register(base, "buyer", "main");
// Each task takes one submission from every worker: `writes` pairs over `taskTotal` tasks.
const workerCount = 30;
const taskSlots = workerCount;
const taskTotal = Math.ceil(writes / workerCount);
for (let bought = 50; bought < taskTotal * taskSlots; bought += 1000) await buyCoins(base, buyer);
const benchTasks: string[] = [];
for (let index = 0; index < taskTotal; index += 1) {
  const posted = await postTask(base, buyer, { required_workers: taskSlots, payable_amount: 1 });
  if (posted.status !== 201) throw new Error(`post task ${posted.status}`);
  benchTasks.push(String(posted.body.id));
}
const workers: Account[] = [];
for (let index = 0; index < workerCount; index += 1)
  workers.push(await register(base, "worker", String(index)));

interface Row {
  route: string;
  "req/s": number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** Tables scanned whole during the run (PostgreSQL only). */
  seqScans: string | null;
}
const rows: Row[] = [];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** One autocannon run; latencies taken from every response (autocannon's own histogram has 1 ms steps). */
async function measure(route: string, options: Partial<autocannon.Options> & { url: string }): Promise<Row> {
  const length = options.amount ? { amount: options.amount } : { duration: seconds };
  const latencies: number[] = [];
  const scansBefore = await sequentialScans();
  const started = performance.now();
  let lastResponse = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ connections, ...options, ...length }, (error: Error | null, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
      lastResponse = performance.now();
    });
  });
  // autocannon's own duration is in whole seconds, and it ends on a whole second: too coarse
  // for a run of a fixed number of writes, so the run lasts until its last response.
  const elapsedSeconds = (lastResponse - started) / 1000;
  latencies.sort((a, b) => a - b);
  const scansAfter = await sequentialScans();
  const row = {
    route,
    "req/s": Math.round(result.requests.total / elapsedSeconds),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    seqScans: scannedTables(scansBefore, scansAfter),
  };
  rows.push(row);
  if (row.errors > 0)
    console.log(
      `  status codes: ${JSON.stringify(result.statusCodeStats)}, errors ${result.errors}, timeouts ${result.timeouts}`,
    );
  console.log(
    `${route.padEnd(34)} ${String(row["req/s"]).padStart(6)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  errors ${row.errors}`,
  );
  return row;
}

const asWorker = { headers: { cookie: workers[0]!.cookie } };
for (const sort of Object.keys(orders)) {
  await measure(`bare reference, ${sort}`, { url: `http://127.0.0.1:${referencePort}/?sort=${sort}` });
  await measure(`task list, ${sort}, first page`, { url: `${base}/api/tasks?sort=${sort}&limit=20` });
  const deep = deepCursors[sort];
  if (deep)
    await measure(`task list, ${sort}, deep page`, {
      url: `${base}/api/tasks?sort=${sort}&limit=20&cursor=${deep}`,
    });
}
let detail = 0;
await measure("task detail", {
  url: base,
  requests: [
    {
      setupRequest: (request) => ({
        ...request,
        path: `/api/tasks/${sampleTaskIds[detail++ % sampleTaskIds.length]}`,
      }),
    },
  ],
});
// Search (issue 17): a word in a tenth of the tasks, a word in fifty tasks at any size, and the common
// word within one category; newest first, as the browsers ask by default.
await measure("search, common word", { url: `${base}/api/tasks?q=review&limit=20` });
await measure("search, rare word", { url: `${base}/api/tasks?q=zanzibar&limit=20` });
await measure("search, common word + category", {
  url: `${base}/api/tasks?q=review&category=surveys&limit=20`,
});
// The server remembers for a few seconds which searches are common; a search never asked
// before pays for finding that out (the same words, with a different word excluded each time).
let fresh = 0;
await measure("search, common word, new each time", {
  url: base,
  requests: [
    { setupRequest: (request) => ({ ...request, path: `/api/tasks?q=review+-x${fresh++}&limit=20` }) },
  ],
});
for (const sort of Object.keys(orders))
  await measure(`worker's available tasks, ${sort}`, {
    url: `${base}/api/worker/tasks?sort=${sort}&limit=20`,
    ...asWorker,
  });
await measure("admin stats", { url: `${base}/api/admin/stats`, headers: { cookie: admin } });

// Writes: each (worker, task) pair once, so every submit and every approve is a real one.
// In rounds, so requests in flight together are for different workers and different tasks, as
// when many buyers review at once (one worker's wallet or one task's escrow takes one transfer at a time).
const pairs = benchTasks
  .flatMap((_, round) =>
    workers.map((worker, index) => ({
      cookie: worker.cookie,
      taskId: benchTasks[(index + round) % benchTasks.length]!,
    })),
  )
  .slice(0, writes);
/** An autocannon request turned into a POST to `path` as the cookie's user, from the app's origin. */
function postAs<Request extends { headers?: IncomingHttpHeaders }>(
  request: Request,
  path: string,
  cookie: string,
  body?: object,
) {
  return {
    ...request,
    path,
    headers: {
      ...request.headers,
      cookie,
      origin: base,
      ...(body ? { "content-type": "application/json" } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  };
}
// The first three rounds (three tasks per worker, the most one may hold) start with a
// reservation and submit in the held slot; the rest submit directly.
const reservedPairs = pairs.slice(0, workerCount * 3);
const directPairs = pairs.slice(reservedPairs.length);
let nextReservation = 0;
await measure("reserve", {
  url: base,
  amount: reservedPairs.length,
  requests: [
    {
      method: "POST",
      setupRequest: (request) => {
        const pair = reservedPairs[nextReservation++ % reservedPairs.length]!;
        return postAs(request, `/api/tasks/${pair.taskId}/reservations`, pair.cookie, {});
      },
    },
  ],
});
const submitted: string[] = [];
const keepSubmission = (status: number, body: string) => {
  if (status === 201) submitted.push((JSON.parse(body) as { id: string }).id);
};
let nextReserved = 0;
await measure("submit with reservation", {
  url: base,
  amount: reservedPairs.length,
  requests: [
    {
      method: "POST",
      setupRequest: (request) => {
        const pair = reservedPairs[nextReserved++ % reservedPairs.length]!;
        return postAs(request, `/api/tasks/${pair.taskId}/submissions`, pair.cookie, {
          submission_details: "Done: https://example.com/proof",
        });
      },
      onResponse: keepSubmission,
    },
  ],
});
let nextPair = 0;
await measure("submit", {
  url: base,
  amount: directPairs.length,
  requests: [
    {
      method: "POST",
      setupRequest: (request) => {
        const pair = directPairs[nextPair++ % directPairs.length]!;
        return postAs(request, `/api/tasks/${pair.taskId}/submissions`, pair.cookie, {
          submission_details: "Done: https://example.com/proof",
        });
      },
      onResponse: keepSubmission,
    },
  ],
});
await measure("buyer's review queue", {
  url: `${base}/api/buyer/submissions?status=pending&limit=20`,
  headers: { cookie: buyer.cookie },
});
let nextApproval = 0;
await measure("approve", {
  url: base,
  amount: submitted.length,
  requests: [
    {
      method: "POST",
      setupRequest: (request) =>
        postAs(
          request,
          `/api/submissions/${submitted[nextApproval++ % submitted.length]}/approve`,
          buyer.cookie,
        ),
    },
  ],
});

// Issue 19: the buyer's statement (every task funded, the purchase, the approvals' refunds
// none): its first page, and a page deep in it through the cursor of the page before.
await measure("statement, first page", {
  url: `${base}/api/me/statement?limit=20`,
  headers: { cookie: buyer.cookie },
});
const statementCursor = (await call(base, buyer.cookie, "GET", "/api/me/statement?limit=100")).body
  .next_cursor as string | null;
await measure("statement, deep page", {
  url: `${base}/api/me/statement?limit=20${statementCursor ? `&cursor=${statementCursor}` : ""}`,
  headers: { cookie: buyer.cookie },
});

// Issue 35 (decision 036): a program posting tasks with an API key (each with its own
// Idempotency-Key, no image), and a 5,000-row CSV batch posted in one request.
const batchRows = 5_000;
const keyTasks = 300;
for (let bought = 0; bought < batchRows + keyTasks; bought += 1000) await buyCoins(base, buyer);
const apiKey = (await call(base, buyer.cookie, "POST", "/api/buyer/api-keys", { name: "bench" })).body
  .key as string;
const taskForm = new FormData();
for (const [name, value] of Object.entries({
  task_title: "Bench task by a program",
  task_detail: "Do the benchmarked thing",
  submission_info: "A link",
  completion_date: dueInDays(7),
  required_workers: "1",
  payable_amount: "1",
}))
  taskForm.append(name, value);
const taskRequest = new Response(taskForm);
const taskBody = Buffer.from(await taskRequest.arrayBuffer());
let nextKeyTask = 0;
await measure("post task with a key", {
  url: base,
  amount: keyTasks,
  requests: [
    {
      method: "POST",
      setupRequest: (request) => ({
        ...request,
        path: "/api/tasks",
        headers: {
          ...request.headers,
          authorization: `Bearer ${apiKey}`,
          "idempotency-key": `bench-task-${nextKeyTask++}`,
          "content-type": taskRequest.headers.get("content-type") ?? "",
        },
        body: taskBody,
      }),
    },
  ],
});
const batchCsv = [
  "task_title,task_detail,submission_info,payable_amount,required_workers,completion_date",
  ...Array.from(
    { length: batchRows },
    (_, n) => `Bench batch task ${n},Do the thing,A link,1,1,${dueInDays(7)}`,
  ),
].join("\n");
const batchForm = new FormData();
batchForm.append("file", new Blob([batchCsv], { type: "text/csv" }), "batch.csv");
const batchStarted = performance.now();
const batch = await fetch(`${base}/api/buyer/batches`, {
  method: "POST",
  body: batchForm,
  headers: { authorization: `Bearer ${apiKey}` },
});
const batchMs = round(performance.now() - batchStarted);
rows.push({
  route: `batch of ${batchRows.toLocaleString("en-US")} tasks (one request)`,
  "req/s": 0,
  p50: batchMs,
  p99: batchMs,
  errors: batch.status === 201 ? 0 : 1,
  requests: 1,
  seqScans: null,
});
console.log(`batch of ${batchRows} tasks: ${batch.status} in ${(batchMs / 1000).toFixed(1)} s`);

const ledger = await call(base, admin, "GET", "/api/admin/ledger/check");
const peakMemoryMb = serverMemoryMb("VmHWM");
const buyerId = ((await call(base, buyer.cookie, "GET", "/api/me")).body.user as { id: string }).id;
await server.stop();

// Issue 35: signed webhook deliveries a second, by the job worker every server runs.
const webhookEvents = 2_000;
const hooksDatabase = await openDatabase({ databaseUrl, dataDir: dataDir ?? null, statementTimeoutMs: 0 });
const hooks = await measureWebhookDeliveries(hooksDatabase.db, buyerId, webhookEvents);
await hooksDatabase.close();
rows.push({
  route: `webhook deliveries (${webhookEvents.toLocaleString("en-US")}, signed, local receiver)`,
  "req/s": round(hooks.delivered / hooks.seconds),
  p50: round(percentile(hooks.durations, 50)),
  p99: round(percentile(hooks.durations, 99)),
  errors: hooks.errors,
  requests: hooks.delivered,
  seqScans: null,
});
console.log(`webhook deliveries: ${hooks.delivered} in ${hooks.seconds.toFixed(1)} s`);
// Issue 36 (decision 037): posting a task with 100,000 saved searches stored, against none.
rows.push(...(await measureSavedSearchAlerts({ databaseUrl })));
if (database.kind === "postgres") await database.close();

const baseline = values.baseline
  ? (JSON.parse(readFileSync(values.baseline, "utf8")) as { tasks: number; rows: Row[] })
  : null;
const bareRate = (route: string) =>
  rows.find((row) => row.route === `bare reference, ${route.split(", ")[1]}`)?.["req/s"];
console.log(
  `\n${databaseUrl ? "PostgreSQL" : "PGlite"}, ${taskCount} tasks (${openCount} open), ${connections} connections, ${seconds} s per read, ${pairs.length} writes; ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB`,
);
// "of bare": the list's rate over the bare route's, same order. First pages are served from the
// one-second cache; deep pages always run the query, so they compare like with like.
console.log(
  `| route | req/s | p50 ms | p99 ms | errors | of bare | sequential scans |${baseline ? ` p50 vs ${baseline.tasks} tasks |` : ""}`,
);
console.log(`|---|---:|---:|---:|---:|---:|---:|${baseline ? "---:|" : ""}`);
for (const row of rows) {
  const bare = row.route.startsWith("task list") ? bareRate(row.route) : undefined;
  const earlier = baseline?.rows.find((other) => other.route === row.route);
  const cells = [
    row.route,
    row["req/s"],
    row.p50,
    row.p99,
    row.errors,
    bare ? round(row["req/s"] / bare) : "",
    row.seqScans ?? "n/a",
  ];
  if (baseline) cells.push(earlier ? `${round(row.p50 / earlier.p50)}x` : "");
  console.log(`| ${cells.join(" | ")} |`);
}
console.log(
  `\nServer memory: ${idleMemoryMb} MB idle (VmRSS), ${peakMemoryMb} MB at its peak (VmHWM). Ledger after the writes: ${ledger.body.ok ? "balanced" : `BROKEN ${JSON.stringify(ledger.body)}`}`,
);
if (values.json)
  writeFileSync(
    values.json,
    JSON.stringify(
      { database: databaseUrl ? "postgres" : "pglite", tasks: taskCount, idleMemoryMb, peakMemoryMb, rows },
      null,
      2,
    ),
  );
const failed = rows.some((row) => row.errors > 0) || !ledger.body.ok;
process.exit(failed ? 1 : 0);
