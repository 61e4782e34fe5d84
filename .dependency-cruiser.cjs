// The server's module borders (issue 33, decision 031), checked by `npm run lint:borders`.
// Server modules stand side by side over a core (core/, lib/, db/, plugins/): a module uses
// another only through that module's service.ts, no import cycle runs between modules, and the
// core never reaches up into a module.
const MODULES = "^apps/server/src/modules/";
const TESTS = "\\.test\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "module-through-its-service",
      comment: "A module uses another module only through that module's service.ts.",
      severity: "error",
      from: { path: `${MODULES}([^/]+)/`, pathNot: TESTS },
      to: { path: MODULES, pathNot: [`${MODULES}$1/`, `${MODULES}[^/]+/service\\.ts$`] },
    },
    {
      name: "no-cycle-between-modules",
      comment: "No import cycle runs through two server modules.",
      severity: "error",
      from: { path: `${MODULES}([^/]+)/`, pathNot: TESTS },
      to: { circular: true, path: MODULES, pathNot: `${MODULES}$1/` },
    },
    {
      name: "core-below-modules",
      comment: "The core (core/, lib/, db/, plugins/) is what modules build on; it imports none of them.",
      severity: "error",
      from: { path: "^apps/server/src/(core|lib|db|plugins)/", pathNot: TESTS },
      to: { path: MODULES },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["node_modules", "/dist/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "apps/server/tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
