import { execFileSync } from "node:child_process";
import { totalmem } from "node:os";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  baselineCompilerOnly,
  LOW_MEMORY_BYTES,
  machineMemoryBytes,
  thisMachine,
} from "../scripts/server-runtime.mjs";
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

describe("npm start on a small machine (decision 025)", () => {
  const GiB = 1024 ** 3;
  const node24 = "13.6.233.17-node.53";

  it("keeps PGlite on V8's baseline compiler only on Node 24 with under 2 GiB", () => {
    expect(LOW_MEMORY_BYTES).toBe(2 * GiB);
    const decide = (v8Version: string, memoryBytes: number, databaseUrl?: string) =>
      baselineCompilerOnly({ v8Version, memoryBytes, databaseUrl });
    expect(decide(node24, 1 * GiB)).toBe(true);
    expect(decide(node24, 2 * GiB - 1)).toBe(true);
    expect(decide(node24, 2 * GiB)).toBe(false);
    expect(decide(node24, 24 * GiB)).toBe(false);
    // Node 22's and Node 26's V8 optimise the parser in 25 MB.
    expect(decide("12.4.254.21-node.33", 1 * GiB)).toBe(false);
    expect(decide("14.6.202.34-node.34", 1 * GiB)).toBe(false);
    // On PostgreSQL no WebAssembly runs.
    expect(decide(node24, 1 * GiB, "postgres://postgres@127.0.0.1:5432/test")).toBe(false);
  });

  afterEach(() => vi.restoreAllMocks());

  it("reads the container's memory limit where one is set, else the machine's total", () => {
    vi.spyOn(process, "constrainedMemory").mockReturnValue(1 * GiB);
    expect(machineMemoryBytes()).toBe(Math.min(1 * GiB, totalmem()));
    // No limit: 0, or (cgroup "max") 2^64.
    vi.spyOn(process, "constrainedMemory").mockReturnValue(0);
    expect(machineMemoryBytes()).toBe(totalmem());
    vi.spyOn(process, "constrainedMemory").mockReturnValue(2 ** 64);
    expect(machineMemoryBytes()).toBe(totalmem());
  });

  it("decides from this process's V8, memory and database", () => {
    vi.spyOn(process, "constrainedMemory").mockReturnValue(1 * GiB);
    expect(thisMachine()).toEqual({
      v8Version: process.versions.v8,
      memoryBytes: Math.min(1 * GiB, totalmem()),
      databaseUrl: process.env.DATABASE_URL,
    });
  });
});
