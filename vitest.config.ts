import { defineConfig } from "vitest/config";

// On PostgreSQL all test files share one database, so they run one at a time;
// on PGlite every file gets its own in-memory database and files run in parallel.
const sharedDatabase = Boolean(process.env.DATABASE_URL);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "shared",
          include: ["packages/shared/src/**/*.test.ts"],
        },
      },
      {
        test: {
          name: "server",
          include: ["apps/server/src/**/*.test.ts"],
          fileParallelism: !sharedDatabase,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          fileParallelism: false,
          // A real browser on a busy 2-core machine: a page or a refetch may take seconds to settle.
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
