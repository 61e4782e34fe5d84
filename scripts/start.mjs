// `npm start`: builds the web app and the server only when their inputs changed since the
// last build (a hash of every input file is kept beside each build), then runs the compiled
// server in this process, so the running tree is npm and one Node process.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { baselineCompilerOnly, thisMachine } from "./server-runtime.mjs";

const root = path.resolve(import.meta.dirname, "..");
const at = (...parts) => path.join(root, ...parts);

// glibc's malloc keeps what V8's compiler threads free in per-thread arenas, and raises its own
// threshold for returning large blocks as it goes: after PGlite's WebAssembly is compiled the
// idle server held about 60 MB it no longer used. These settings (scripts/server-environment.json,
// decision 024) give back blocks of 128 KB and more, and an arena's free top past 128 KB, when
// freed; glibc reads them at process start, and V8 reads its flags then too, so this process
// replaces itself once with them set (same process, no child): the malloc settings on Linux, and
// on a small machine under Node 24 V8's `--liftoff-only` (decision 025), wherever Node has execve.
const machine = thisMachine();
const mallocSettings =
  process.platform === "linux"
    ? Object.fromEntries(
        Object.entries(JSON.parse(readFileSync(at("scripts/server-environment.json"), "utf8"))).map(
          ([name, value]) => [name, String(value)],
        ),
      )
    : {};
const missingFlags =
  baselineCompilerOnly(machine) && !process.execArgv.includes("--liftoff-only") ? ["--liftoff-only"] : [];
if (
  typeof process.execve === "function" &&
  (missingFlags.length > 0 ||
    Object.entries(mallocSettings).some(([name, value]) => process.env[name] !== value))
) {
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, ...missingFlags, ...process.argv.slice(1)],
    { ...process.env, ...mallocSettings },
  );
}
if (process.execArgv.includes("--liftoff-only"))
  console.log(
    `This machine has ${(machine.memoryBytes / 1024 ** 3).toFixed(1)} GiB and Node ${process.versions.node}: ` +
      "the embedded database stays on V8's baseline compiler, which keeps the server's peak near 300 MB " +
      "instead of 750, with queries about 1.5 times slower (docs/performance.md).",
  );

/** Every file under the given paths (folders walked, node_modules and build output skipped). */
function filesUnder(paths) {
  const files = [];
  const walk = (entry) => {
    if (!existsSync(entry)) return;
    if (statSync(entry).isDirectory()) {
      for (const name of readdirSync(entry).sort())
        if (!["node_modules", "dist", "dist-ssr"].includes(name)) walk(path.join(entry, name));
    } else files.push(entry);
  };
  paths.forEach(walk);
  return files;
}

/** A hash of the inputs' names and contents. */
function hashOf(paths) {
  const hash = createHash("sha256");
  for (const file of filesUnder(paths))
    hash.update(path.relative(root, file)).update("\0").update(readFileSync(file));
  return hash.digest("hex");
}

const shared = [at("packages/shared"), at("package-lock.json")];
const builds = [
  {
    name: "web app",
    stamp: at("apps/web/dist/.inputs-hash"),
    inputs: [at("apps/web"), at("scripts/prerender.mjs"), at("scripts/precompress.mjs"), ...shared],
    command: ["npm", ["run", "build", "-w", "@taskmint/web"]],
  },
  {
    name: "server",
    stamp: at("apps/server/dist/.inputs-hash"),
    inputs: [
      at("apps/server/src"),
      at("apps/server/package.json"),
      at("scripts/build-server.mjs"),
      ...shared,
    ],
    command: [process.execPath, [at("scripts/build-server.mjs")]],
  },
];

for (const build of builds) {
  const hash = hashOf(build.inputs);
  if (existsSync(build.stamp) && readFileSync(build.stamp, "utf8") === hash) {
    console.log(`The ${build.name} is up to date.`);
    continue;
  }
  console.log(`Building the ${build.name}...`);
  const [command, args] = build.command;
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(build.stamp, hash);
}

await import(pathToFileURL(at("apps/server/dist/main.js")).href);
