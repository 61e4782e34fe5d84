import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from "./server-node-flags.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

const START_TIMEOUT_MS = 110_000;

export interface RunningServer {
  url: string;
  /** Ends the process at once, as a crash would (SIGKILL), keeping its data. */
  kill(): Promise<void>;
  /** The server's DATA_DIR (its dev mail outbox is in outbox/). */
  dataDir: string;
  /** The server process's id. */
  pid: number;
  /** What the server printed, for failure messages. */
  output(): string;
  /** False once the process has exited, for whatever reason. */
  running(): boolean;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Starts the compiled server (apps/server/dist/main.js, serving the built web app) on a
 * free port with a fresh database: a new embedded PGlite, or the PostgreSQL of
 * DATABASE_URL emptied first.
 */
export async function startServer(
  env: Record<string, string> = {},
  reuse?: { dataDir: string; port: number },
): Promise<RunningServer> {
  if (process.env.DATABASE_URL && !reuse) {
    const { openTestDatabase } = await import("../../apps/server/src/test/harness.ts");
    await (await openTestDatabase()).close();
  }
  const port = reuse?.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const dataDir = reuse?.dataDir ?? (await mkdtemp(path.join(tmpdir(), "taskmint-e2e-")));
  let output = "";
  // The compiled server, as `npm start` runs it (`npm run build` made it).
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, "apps/server/dist/main.js"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...SERVER_ENVIRONMENT,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SEED_DEMO: "false",
      AUTH_RATE_LIMIT: "0",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  // Within the e2e hooks' 120 s: a start on 2 busy cores (PGlite's WebAssembly compiled beside a
  // browser at full load) took over 60 s in a CI run.
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    dataDir,
    pid: child.pid ?? 0,
    output: () => output,
    running,
    async kill() {
      if (!running()) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (running()) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
