// `npm start`: builds the web app and the server only when their inputs or the mode (NODE_ENV)
// changed since the last build (scripts/builds.mjs), then runs the compiled server in this
// process, so the running tree is npm and one Node process.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildWhatChanged } from "./builds.mjs";
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

buildWhatChanged(process.env);

await import(pathToFileURL(at("apps/server/dist/main.js")).href);
