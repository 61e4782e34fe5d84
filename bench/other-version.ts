// Another version of TaskMint, checked out and built in a scratch work tree, for A/B runs
// (`npm run load -- --compare <ref>`). The tree is kept and reused for the same commit.
import { execFileSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { repoRoot, type RunningServer } from "./support.ts";

type StartServer = (options: { databaseUrl?: string }) => Promise<RunningServer>;

export interface OtherVersion {
  label: string;
  startServer: StartServer;
}

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });

/** Checks `ref` out into a scratch work tree, installs and builds it, and loads its own way of starting its server. */
export async function prepareOtherVersion(ref: string): Promise<OtherVersion> {
  const sha = execFileSync("git", ["rev-parse", "--verify", `${ref}^{commit}`], { cwd: repoRoot })
    .toString()
    .trim();
  const dir = path.join(tmpdir(), "taskmint-compare", sha.slice(0, 12));
  const ready = path.join(dir, ".taskmint-compare-ready");
  if (!existsSync(ready)) {
    console.log(`Preparing ${ref} (${sha.slice(0, 12)}) in ${dir}...`);
    if (existsSync(dir)) {
      rmSync(dir, { recursive: true, force: true });
      run("git", ["worktree", "prune"], repoRoot);
    }
    run("git", ["worktree", "add", "--force", "--detach", dir, sha], repoRoot);
    run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], dir);
    run("npm", ["run", "build"], dir);
    writeFileSync(ready, `${sha}\n`);
  }
  // Each version starts its server its own way (a compiled build, or tsx in older ones), as its
  // own `npm run load` did: both export startServer({ databaseUrl }) from bench/support.ts.
  const support = (await import(pathToFileURL(path.join(dir, "bench", "support.ts")).href)) as {
    startServer: StartServer;
  };
  return { label: ref, startServer: support.startServer };
}

/** A new, empty database beside the one `url` names, and a way to drop it; PGlite (no url) needs none. */
export async function freshDatabase(url: string | undefined, name: string) {
  if (!url) return { url: undefined, drop: async () => undefined };
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return {
    url: fresh.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
