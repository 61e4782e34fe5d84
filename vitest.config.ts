import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** e2e files whose behaviour does not depend on which database serves it (decision 028). */
const PGLITE_ONLY_E2E = [
  "e2e/design.test.ts",
  "e2e/public-pages.test.ts",
  "e2e/all-tasks-html.test.ts",
  "e2e/hostile.test.ts",
  "e2e/accounts.test.ts",
  "e2e/addresses.test.ts",
  "e2e/builds.test.ts",
  "e2e/second-factor.test.ts",
  // The phone app's pages, service worker and push (the server suite covers saved searches,
  // alerts and pushes on both databases).
  "e2e/pwa.test.ts",
  "e2e/alerts.test.ts",
];

export default defineConfig({
  test: {
    // Vitest's default leaves a core to its main process, which idles here: on CI's 2 cores that
    // ran the server suite one file at a time (6.6 min; 4.2 min with two workers).
    maxWorkers: Math.max(availableParallelism(), 2),
    projects: [
      {
        test: {
          name: "shared",
          include: ["packages/shared/src/**/*.test.ts"],
        },
      },
      {
        // The buyers' typed client: its committed types against a fresh generation (a server's document).
        test: {
          name: "buyer-client",
          include: ["packages/buyer-client/**/*.test.ts"],
          testTimeout: 120_000,
        },
      },
      {
        // The browser's own logic (hooks and helpers), in a simulated DOM: fast, no server.
        test: {
          name: "web",
          include: ["apps/web/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["apps/web/src/test-setup.ts"],
        },
      },
      {
        test: {
          name: "server",
          include: ["apps/server/src/**/*.test.ts"],
          // Files run in parallel: each has its own PGlite, or its worker's PostgreSQL database.
          // A worker keeps its loaded modules from file to file (the suite has no module mocks and
          // no module-level state a file depends on): importing the app anew took about 3 s a file.
          isolate: false,
          globalSetup: ["apps/server/src/test/global-setup.ts"],
          setupFiles: ["apps/server/src/test/worker-database.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          // On PostgreSQL, only the files whose outcome can depend on the database: money flows,
          // notifications across processes, crashes and outages. The pages, their markup and the
          // browser's security run on PGlite only; the server suite covers every route on both
          // (decision 028: CI time).
          exclude: process.env.DATABASE_URL ? PGLITE_ONLY_E2E : [],
          // Two files at a time, each with its own server process (and, on PostgreSQL, its worker's database).
          setupFiles: ["apps/server/src/test/worker-database.ts"],
          // A real browser on a busy 2-core machine: a page or a refetch may take seconds to settle.
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
