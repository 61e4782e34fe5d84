// Compiles the server into one JavaScript file, apps/server/dist/main.js, which `npm start`
// runs with plain Node (no TypeScript loader), and the benchmark's entry point (the same server
// plus its bare reference route) into dist/bench-server.js, so that `npm run bench` measures the
// compiled server users run. npm packages stay outside the bundle; the
// workspace's shared package is compiled in. The migrations and the demo illustrations, read
// at run time beside the code, are copied next to it.
import { cp, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const server = path.join(root, "apps/server");
const dist = path.join(server, "dist");
const manifest = JSON.parse(await readFile(path.join(server, "package.json"), "utf8"));
const external = Object.keys(manifest.dependencies).filter((name) => !name.startsWith("@taskmint/"));

// Everything but `npm start`'s record of the inputs it last built from (scripts/start.mjs): this
// build is of the current inputs, so the record stays true if it matches them, and `npm start`
// rebuilds if it does not. (Deleting it made every start after a benchmark build again.)
for (const entry of await readdir(dist).catch(() => []))
  if (entry !== ".inputs-hash") await rm(path.join(dist, entry), { recursive: true, force: true });
await build({
  entryPoints: {
    main: path.join(server, "src/main.ts"),
    "bench-server": path.join(server, "src/bench/bench-server.ts"),
  },
  outdir: dist,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external,
  sourcemap: true,
  // Stack traces point at the TypeScript sources.
  sourcesContent: false,
  logLevel: "warning",
  // Some packages bundled here still call require(): give them one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
await cp(path.join(server, "src/db/migrations"), path.join(dist, "migrations"), { recursive: true });
await cp(path.join(server, "src/seed/illustrations"), path.join(dist, "illustrations"), { recursive: true });
console.log("built apps/server/dist/main.js and bench-server.js");
