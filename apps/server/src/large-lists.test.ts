import { gt, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  LARGE_LIST_COUNT_CAP,
  type AdminStats,
  type AdminUser,
  type TaskSearchPage,
  type LargePage,
  type Task,
} from "@taskmint/shared";
import { tasks } from "./db/schema/index.ts";
import { checkStatsCounters } from "./modules/stats/service.ts";
import { seedLarge } from "./seed/large.ts";
import { registerUser, signInAdmin, testAppPerFile, type RegisteredUser } from "./test/harness.ts";

// Lists that grow with the platform page by keyset and count only up to a cap (issue 9).

let admin: string;
let worker: RegisteredUser;
const USERS = 1_100;

const ctx = testAppPerFile();
beforeAll(async () => {
  await seedLarge(ctx.db, { tasks: 1_200, users: USERS, submissions: 300 }, new Date());
  admin = (await signInAdmin(ctx, "lists-admin@example.com")).cookie;
  worker = await registerUser(ctx.app, "worker");
});

async function get<T>(url: string, cookie: string) {
  const response = await ctx.app.inject({ method: "GET", url, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
}

/** Follows next_cursor from the first page to the last; answers every id in order. */
async function walk<T extends { id: string }>(
  path: string,
  cookie: string,
  limit: number,
  filters = "",
): Promise<T[]> {
  const seen: T[] = [];
  let cursor: string | null = null;
  for (let page = 1; page < 1000; page += 1) {
    const query: string = `${filters ? `&${filters}` : ""}${cursor ? `&cursor=${cursor}&page=${page}` : ""}`;
    const answer: LargePage<T> = await get<LargePage<T>>(`${path}?limit=${limit}${query}`, cookie);
    expect(answer.items.length).toBeLessThanOrEqual(limit);
    expect(answer.page).toBe(page);
    seen.push(...answer.items);
    cursor = answer.next_cursor;
    if (!cursor) return seen;
  }
  throw new Error("the list did not end");
}

describe("large lists", () => {
  it("pages the worker's available tasks by cursor through every task, newest first, none twice", async () => {
    const first = await get<LargePage<Task>>("/api/worker/tasks?limit=100", worker.cookie);
    expect(first).toMatchObject({ page: 1, limit: 100, total: LARGE_LIST_COUNT_CAP, total_capped: true });
    const all = await walk<Task>("/api/worker/tasks", worker.cookie, 100);
    // Seeded submissions filled some tasks' slots.
    const takeable = await ctx.db.$count(tasks, gt(tasks.requiredWorkers, 0));
    expect(takeable).toBeGreaterThan(LARGE_LIST_COUNT_CAP);
    expect(all).toHaveLength(takeable);
    expect(new Set(all.map((task) => task.id)).size).toBe(takeable);
    const created = all.map((task) => task.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(all.every((task) => task.required_workers > 0 && task.status === "open")).toBe(true);
  });

  it("counts exactly below the cap", async () => {
    const buyers = await get<LargePage<AdminUser>>("/api/admin/users?role=buyer&limit=5", admin);
    expect(buyers).toMatchObject({ total: USERS / 5, total_capped: false });
  });

  it("answers page numbers within the counted rows, and asks for the cursor past them", async () => {
    const byNumber = await get<LargePage<Task>>("/api/admin/tasks?page=3&limit=100", admin);
    const walked = await walk<Task>("/api/admin/tasks", admin, 100);
    expect(byNumber.items.map((task) => task.id)).toEqual(walked.slice(200, 300).map((task) => task.id));
    const past = await ctx.app.inject({
      method: "GET",
      url: `/api/admin/tasks?page=${LARGE_LIST_COUNT_CAP / 100 + 1}&limit=100`,
      headers: { cookie: admin },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({
      error: { code: "VALIDATION", details: { page: expect.stringContaining("cursor") as unknown } },
    });
  });

  it("pages the admins' user list by name, past the cap, and refuses a forged cursor", async () => {
    const users = await walk<AdminUser>("/api/admin/users", admin, 100);
    expect(users.length).toBe(USERS + 2);
    expect(new Set(users.map((user) => user.id)).size).toBe(USERS + 2);
    const forged = await ctx.app.inject({
      method: "GET",
      url: "/api/admin/users?cursor=bm90LWEtY3Vyc29y",
      headers: { cookie: admin },
    });
    expect(forged.statusCode).toBe(400);
  });

  it("keeps the admin stats counters equal to a recount after bulk writes", async () => {
    const stats = await get<AdminStats>("/api/admin/stats", admin);
    expect(stats).toMatchObject({ totalWorkers: USERS - USERS / 5 + 1, totalBuyers: USERS / 5 });
    expect(await checkStatsCounters(ctx.db)).toEqual([]);
  });
});

describe("searching a large list (issue 17)", () => {
  it("reads a word in more tasks than the cap by the ordered walk, and a rare one through the full-text index, the same tasks either way", async () => {
    const takeable = await ctx.db.$count(tasks, sql`status = 'open' and required_workers > 0`);
    expect(takeable).toBeGreaterThan(LARGE_LIST_COUNT_CAP);
    // Every seeded task's details say "steps": more matches than the cap (the ordered walk).
    const common = await walk<Task>("/api/worker/tasks", worker.cookie, 100, "q=steps&sort=ending_soon");
    expect(common).toHaveLength(takeable);
    expect(new Set(common.map((task) => task.id)).size).toBe(takeable);
    const first = await get<LargePage<Task>>("/api/worker/tasks?q=steps&limit=5", worker.cookie);
    expect(first).toMatchObject({ total: LARGE_LIST_COUNT_CAP, total_capped: true });
    // "Review" opens a tenth of the titles: under the cap (narrowed to the matching ids).
    const rare = await walk<Task>("/api/worker/tasks", worker.cookie, 7, "q=review&sort=pay_per_hour");
    const expected = common.filter((task) => /^Review /.test(task.task_title));
    expect(rare.map((task) => task.id).sort()).toEqual(expected.map((task) => task.id).sort());
    expect(rare.length).toBeGreaterThan(0);
    expect(rare.length).toBeLessThan(LARGE_LIST_COUNT_CAP);
    // The ids read first count the matches, exactly under the cap, in both lists.
    const rareFirst = await get<LargePage<Task>>("/api/worker/tasks?q=review&limit=5", worker.cookie);
    expect(rareFirst).toMatchObject({ total: expected.length, total_capped: false });
    const publicReview = await ctx.db.$count(
      tasks,
      sql`status = 'open' and required_workers > 0 and deleted_at is null and completion_date >= current_date
        and search_document @@ websearch_to_tsquery('english', 'review')`,
    );
    const publicFirst = await get<TaskSearchPage>("/api/tasks?q=review&limit=5", worker.cookie);
    expect(publicFirst).toMatchObject({ total_estimate: publicReview, total_capped: false });
    expect(publicFirst.items).toHaveLength(5);
    const publicCommon = await get<TaskSearchPage>("/api/tasks?q=steps&limit=5", worker.cookie);
    expect(publicCommon).toMatchObject({ total_estimate: LARGE_LIST_COUNT_CAP, total_capped: true });
  });
});
