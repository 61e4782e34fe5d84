import { describe, expect, it } from "vitest";
import type { CursorPage, Task } from "@taskmint/shared";
import { submissions, tasks } from "../db/schema/index.ts";
import { checkLedger } from "../modules/ledger/service.ts";
import { testAppPerFile } from "../test/harness.ts";
import { seedLarge } from "./large.ts";

const ctx = testAppPerFile();

describe("seed:large", () => {
  it("fills tasks, users and pending submissions with the ledger balanced, and can run again", async () => {
    await seedLarge(ctx.db, { tasks: 500, users: 100, submissions: 800 }, new Date());
    await seedLarge(ctx.db, { tasks: 300, users: 50, submissions: 300 }, new Date(Date.now() + 1000));
    expect(await ctx.db.$count(tasks)).toBe(800);
    const pending = await ctx.db.$count(submissions);
    expect(pending).toBeGreaterThan(500);
    expect((await checkLedger(ctx.db)).problems).toEqual([]);
    const page = (await ctx.app.inject({ method: "GET", url: "/api/tasks?sort=price_desc&limit=5" })).json<
      CursorPage<Task>
    >();
    expect(page.items).toHaveLength(5);
    expect(page.items[0]?.payable_amount).toBe(100);
    // Seeded ids pass the API's own checks.
    expect((await ctx.app.inject({ method: "GET", url: `/api/tasks/${page.items[0]?.id}` })).statusCode).toBe(
      200,
    );
  });
});
