import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "./support/server.ts";

// Issue 20's guard: the compiled server, started as `npm start` starts it (its Node options and
// glibc malloc settings included) on data it made before, holds at most this much memory when
// idle (its resident set, as the system counts it). Measured idle after two requests
// (docs/performance.md): 936 MB before issue 20; on Node 24 (CI's) 416-428 MB with V8's own
// young-generation size, 305-324 MB with `--max-semi-space-size=16` (2026-11-25), 231-258 MB
// with the SDKs loaded lazily and malloc returning freed blocks (2026-11-26, decision 024).
// The budget holds the last figure with room for run-to-run noise.
const IDLE_BUDGET_MB = 300;

const residentMb = (pid: number) =>
  Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) / 1024;

let server: RunningServer | undefined;
afterAll(() => server?.stop());

describe("memory footprint", () => {
  it(`an idle server restarted on its own data holds at most ${IDLE_BUDGET_MB} MB`, async () => {
    const first = await startServer({ SEED_DEMO: "true" });
    await first.kill();
    server = await startServer(
      { SEED_DEMO: "true" },
      { dataDir: first.dataDir, port: Number(new URL(first.url).port) },
    );
    // A first page and an API answer, then quiet.
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/tasks`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const resident = residentMb(server.pid);
    console.log(`idle server: ${resident.toFixed(0)} MB resident (budget ${IDLE_BUDGET_MB} MB)`);
    expect(resident).toBeLessThanOrEqual(IDLE_BUDGET_MB);
  }, 120_000);
});
