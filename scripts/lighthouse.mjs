// Lighthouse check of Home and All Tasks on Lighthouse's default mobile settings
// (emulated Moto G-class phone, simulated throttling): the median performance score
// of 3 runs at least 95 and accessibility 100 on each page (issue 16).
// Without --url it serves the production build (run `npm run build` first) with
// the compiled server on a fresh database seeded with demo data.
//   npx tsx scripts/lighthouse.mjs [--url http://127.0.0.1:PORT/] [--json report.json]
// With --json, every run's report is written (report-home-1.json, ...): runs differ, and the
// one to read is usually the worst.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { QUIET_CHROMIUM_FLAGS, chromiumPath } from "../e2e/support/browser.ts";
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from "../e2e/support/server-node-flags.ts";

const MIN_PERFORMANCE = 95;
const MIN_ACCESSIBILITY = 100;
const PAGES = ["/", "/allTask"];
const RUNS = 3;
const METRICS = [
  { id: "first-contentful-paint", label: "FCP", format: (value) => `${(value / 1000).toFixed(1)} s` },
  { id: "largest-contentful-paint", label: "LCP", format: (value) => `${(value / 1000).toFixed(1)} s` },
  { id: "total-blocking-time", label: "TBT", format: (value) => `${Math.round(value)} ms` },
  { id: "cumulative-layout-shift", label: "CLS", format: (value) => value.toFixed(3) },
  { id: "speed-index", label: "Speed Index", format: (value) => `${(value / 1000).toFixed(1)} s` },
];

const repoRoot = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({ options: { url: { type: "string" }, json: { type: "string" } } });

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the real server on the production build, resolving once /healthz answers 200. */
async function startServer() {
  for (const built of ["apps/web/dist/index.html", "apps/server/dist/main.js"]) {
    if (!existsSync(path.join(repoRoot, built))) {
      throw new Error(`${built} is missing: run \`npm run build\` first.`);
    }
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), "taskmint-lighthouse-data-"));
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "apps/server/dist/main.js"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...SERVER_ENVIRONMENT,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      AUTH_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "warn",
      SEED_DEMO: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited early:\n${output}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer /healthz within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url: `${url}/`, stop };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function printTable(rows) {
  const header = ["Run", "Perf", "A11y", ...METRICS.map((metric) => metric.label)];
  const cells = [
    header,
    ...rows.map((row) => [
      row.name,
      String(row.score),
      String(row.accessibility),
      ...METRICS.map((metric) => metric.format(row.metrics[metric.id])),
    ]),
  ];
  const widths = header.map((_, column) => Math.max(...cells.map((line) => line[column].length)));
  for (const line of cells) console.log(line.map((cell, column) => cell.padStart(widths[column])).join("  "));
}

/** How many times a run is tried again when Chromium's trace lost its navigation start. */
const TRACE_RETRIES = 2;

/**
 * One Lighthouse run of a page. NO_NAVSTART is Lighthouse failing to record the trace (seen
 * now and then on a busy 2-core machine), not a result of the page: that run is made again.
 */
async function measure(port, pageUrl, run) {
  for (let attempt = 0; ; attempt++) {
    const result = await lighthouse(pageUrl, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
    });
    if (!result) throw new Error("Lighthouse returned no result");
    if (result.lhr.runtimeError?.code !== "NO_NAVSTART" || attempt === TRACE_RETRIES) return result;
    console.log(`   (run ${run}: Lighthouse recorded no navigation start; measuring it again)`);
  }
}

const reportFile = (base, page, run) =>
  base.replace(/(\.json)?$/, `-${page === "/" ? "home" : page.slice(1)}-${run}.json`);

/** The largest contentful paint's element, as Lighthouse names it. */
function lcpElementOf(lhr) {
  const table = lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0];
  return table?.items?.[0]?.node?.snippet ?? "(none)";
}

async function main() {
  const server = args.url ? null : await startServer();
  const url = args.url ?? server.url;
  const userDataDir = await mkdtemp(path.join(tmpdir(), "taskmint-lighthouse-chromium-"));
  let chromium;
  try {
    chromium = await chromeLauncher.launch({
      chromePath: chromiumPath(),
      chromeFlags: ["--headless=new", ...QUIET_CHROMIUM_FLAGS],
      userDataDir,
      logLevel: "error",
    });
    let passed = true;
    for (const page of PAGES) {
      const pageUrl = new URL(page, url).href;
      console.log(`\nLighthouse ${RUNS} runs, mobile defaults: ${pageUrl}`);
      const runs = [];
      for (let run = 1; run <= RUNS; run++) {
        const result = await measure(chromium.port, pageUrl, run);
        const { lhr } = result;
        if (lhr.runtimeError)
          throw new Error(
            `Lighthouse run ${run} failed: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`,
          );
        if (args.json) await writeFile(reportFile(args.json, page, run), result.report);
        runs.push({
          name: String(run),
          score: Math.round((lhr.categories.performance.score ?? 0) * 100),
          accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
          failing: Object.values(lhr.audits)
            .filter(
              (audit) =>
                audit.score === 0 &&
                lhr.categories.accessibility.auditRefs.some((ref) => ref.id === audit.id),
            )
            .map((audit) => audit.id),
          metrics: Object.fromEntries(
            METRICS.map((metric) => [metric.id, lhr.audits[metric.id].numericValue ?? NaN]),
          ),
          lcpElement: lcpElementOf(lhr),
        });
      }
      const medianRow = {
        name: "median",
        score: median(runs.map((run) => run.score)),
        accessibility: Math.min(...runs.map((run) => run.accessibility)),
        metrics: Object.fromEntries(
          METRICS.map((metric) => [metric.id, median(runs.map((run) => run.metrics[metric.id]))]),
        ),
      };
      printTable([...runs, medianRow]);
      for (const run of runs) console.log(`   run ${run.name}: LCP element ${run.lcpElement}`);
      if (args.json) console.log(`Reports: ${reportFile(args.json, page, "N")}`);
      const failing = [...new Set(runs.flatMap((run) => run.failing))];
      if (failing.length > 0) console.log(`Failing accessibility audits: ${failing.join(", ")}`);
      const pagePassed = medianRow.score >= MIN_PERFORMANCE && medianRow.accessibility >= MIN_ACCESSIBILITY;
      console.log(
        `${page}: performance ${medianRow.score} (target ${MIN_PERFORMANCE}), accessibility ${medianRow.accessibility} (target ${MIN_ACCESSIBILITY}): ${pagePassed ? "meets" : "BELOW"} the targets`,
      );
      passed &&= pagePassed;
    }
    return passed;
  } finally {
    chromium?.kill();
    await server?.stop();
    await rm(userDataDir, { recursive: true, force: true });
  }
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
