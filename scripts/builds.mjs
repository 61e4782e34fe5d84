// The builds `npm start`, `npm run bench` and `npm run load` run the server from, and when one is
// reused: only when it was made from the same inputs (a hash of every input file's name and
// content) in the same mode (NODE_ENV). A record of both is kept beside each build. The mode
// matters: with NODE_ENV other than production, Vite builds the web app's server-side bundle with
// React's development JSX runtime, which a production server cannot load (issue 31).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const at = (...parts) => path.join(root, ...parts);

/**
 * @typedef {{ name: string, record: string, inputs: string[], command: [string, string[]] }} Build
 */

const shared = [at("packages/shared"), at("package-lock.json")];
/** @type {Build[]} */
export const BUILDS = [
  {
    name: "web app",
    record: at("apps/web/dist/.inputs-hash"),
    inputs: [at("apps/web"), at("scripts/prerender.mjs"), at("scripts/precompress.mjs"), ...shared],
    command: ["npm", ["run", "build", "-w", "@taskmint/web"]],
  },
  {
    name: "server",
    record: at("apps/server/dist/.inputs-hash"),
    inputs: [
      at("apps/server/src"),
      at("apps/server/package.json"),
      at("scripts/build-server.mjs"),
      ...shared,
    ],
    command: [process.execPath, [at("scripts/build-server.mjs")]],
  },
];

/** Every file under the given paths (folders walked, node_modules and build output skipped). */
function filesUnder(paths) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} entry */
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

/**
 * The mode a build is made in: the build tools' (Vite, esbuild) reading of NODE_ENV, production when unset.
 * @param {Record<string, string | undefined>} env
 */
export const buildMode = (env) => env.NODE_ENV || "production";

/**
 * What decides whether a build is reused: its inputs' names and contents, and the mode.
 * @param {Pick<Build, "inputs">} build
 * @param {Record<string, string | undefined>} env
 */
export function recordOf(build, env) {
  const hash = createHash("sha256").update(`mode=${buildMode(env)}\0`);
  for (const file of filesUnder(build.inputs))
    hash.update(path.relative(root, file)).update("\0").update(readFileSync(file));
  return hash.digest("hex");
}

/**
 * Builds, in the environment `env`, each build whose record does not match its inputs and that
 * environment's mode; answers the names of those built. Exits the process if a build fails.
 * @param {Record<string, string | undefined>} env
 * @param {Build[]} [builds]
 */
export function buildWhatChanged(env, builds = BUILDS) {
  const built = [];
  for (const build of builds) {
    const record = recordOf(build, env);
    if (existsSync(build.record) && readFileSync(build.record, "utf8") === record) {
      console.log(`The ${build.name} is up to date.`);
      continue;
    }
    console.log(`Building the ${build.name} (${buildMode(env)})...`);
    const [command, args] = build.command;
    const result = spawnSync(command, args, { cwd: root, env, stdio: "inherit" });
    if (result.status !== 0) process.exit(result.status ?? 1);
    writeFileSync(build.record, record);
    built.push(build.name);
  }
  return built;
}
