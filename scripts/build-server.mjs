// Compiles the server into one JavaScript file, apps/server/dist/main.js, which `npm start`
// runs with plain Node (no TypeScript loader), and the benchmark's entry point (the same server
// plus its bare reference route) into dist/bench-server.js, so that `npm run bench` measures the
// compiled server users run. npm packages stay outside the bundle; the
// workspace's shared package is compiled in. The migrations and the demo illustrations, read
// at run time beside the code, are copied next to it.
import { cp, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const server = path.join(root, "apps/server");
const dist = path.join(server, "dist");
const manifest = JSON.parse(await readFile(path.join(server, "package.json"), "utf8"));
const external = Object.keys(manifest.dependencies).filter((name) => !name.startsWith("@taskmint/"));

// The record of what the last build was made from goes too (scripts/builds.mjs writes it once
// this build succeeds): run on its own, as `npm run build` does, this build may be in another mode.
await rm(dist, { recursive: true, force: true });
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
