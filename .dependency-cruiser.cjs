// The module borders (issue 33, decision 031), checked by `npm run lint:borders`.
// Server modules stand side by side over a core (core/, lib/, db/, plugins/): a module uses
// another only through that module's service.ts, no import cycle runs between modules, and the
// core never reaches up into a module. Web features stand side by side too: a page that needs
// two of them lives in app/ and composes them; shared pieces live in components/ and lib/.
const MODULES = "^apps/server/src/modules/";
const TESTS = "\\.test\\.ts$";
const FEATURES = "^apps/web/src/features/";

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
    {
      name: "feature-stands-alone",
      comment: "A web feature imports no other feature: pages that need two live in app/.",
      severity: "error",
      from: { path: `${FEATURES}([^/]+)/` },
      to: { path: FEATURES, pathNot: `${FEATURES}$1/` },
    },
    {
      name: "feature-below-app",
      comment: "app/ composes features; a feature does not reach up into it.",
      severity: "error",
      from: { path: FEATURES },
      to: { path: "^apps/web/src/app/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["node_modules", "/dist/"] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js"] },
  },
};
