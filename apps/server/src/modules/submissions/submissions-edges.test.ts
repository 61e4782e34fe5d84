import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Reservation, Submission } from "@taskmint/shared";
import { reservations, submissions, tasks } from "../../db/schema/index.ts";
import { marketplaceTestFile, registerUser } from "../../test/harness.ts";
import { expireTasks } from "../tasks/service.ts";
import { autoApproveDue } from "./service.ts";

// Rules R3, R6 and R9 at the edges of their windows, and decisions beside rows in other states.

const { clock, ctx, call, coinsOf, days, newTask, pendingSubmission, submit } = marketplaceTestFile();

const statusOf = async (submissionId: string) =>
  (await ctx.db.select().from(submissions).where(eq(submissions.id, submissionId)))[0]?.status;
const taskStatusOf = async (taskId: string) =>
  (await ctx.db.select().from(tasks).where(eq(tasks.id, taskId)))[0]?.status;

describe("the completion date (rules R3, R9)", () => {
  it("takes work until the last moment of the completion date, in a free slot or a reserved one, and the expiry job closes the task only after it", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const task = await newTask(buyer, {
      required_workers: 3,
      payable_amount: 2,
      completion_date: days(0),
      time_limit_minutes: 1440,
    });
    const holder = await registerUser(ctx.app, "worker");
    const reserved = await call("POST", `/api/tasks/${task.id}/reservations`, holder.cookie);
    expect(reserved.statusCode, reserved.body).toBe(201);
    const now = clock.now();
    const nextMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    clock.advanceMs(nextMidnight - now.getTime() - 1);
    expect(clock.now().toISOString().slice(0, 10)).toBe(task.completion_date);
    expect((await submit(await registerUser(ctx.app, "worker"), task.id)).statusCode).toBe(201);
    expect((await submit(holder, task.id)).statusCode).toBe(201);
    const [used] = await ctx.db
      .select()
      .from(reservations)
      .where(eq(reservations.id, reserved.json<Reservation>().id));
    expect(used?.status).toBe("submitted");
    await expireTasks(ctx.db, clock.now());
    expect(await taskStatusOf(task.id)).toBe("open");

    clock.advanceMs(1);
    const late = await submit(await registerUser(ctx.app, "worker"), task.id);
    expect([late.statusCode, late.json<{ error: { code: string } }>().error.code]).toEqual([
      409,
      "TASK_CLOSED",
    ]);
    expect(await expireTasks(ctx.db, clock.now())).toBeGreaterThanOrEqual(1);
    expect(await taskStatusOf(task.id)).toBe("closed");
    // The slot no one took comes back; the pending submissions keep their coins in escrow.
    expect(await coinsOf(buyer)).toBe(50 - 6 + 2);
  });
});

describe("auto-approval (rule R6)", () => {
  it("approves at the moment the three days end, not a millisecond before", async () => {
    const { worker, submission } = await pendingSubmission({ payable_amount: 4, completion_date: days(30) });
    const dueAt = Date.parse(submission.auto_approve_at ?? "");
    await autoApproveDue(ctx.db, new Date(dueAt - 1));
    expect(await statusOf(submission.id)).toBe("pending");
    expect(await coinsOf(worker)).toBe(10);
    await autoApproveDue(ctx.db, new Date(dueAt));
    expect(await statusOf(submission.id)).toBe("approved");
    expect(await coinsOf(worker)).toBe(14);
  });

  it("never approves a rejected submission: not its buyer, not the job after the three days", async () => {
    const { buyer, task, worker, submission } = await pendingSubmission({
      required_workers: 2,
      payable_amount: 5,
      completion_date: days(30),
    });
    const other = await registerUser(ctx.app, "worker");
    const waiting = (await submit(other, task.id)).json<Submission>();
    const rejected = await call("POST", `/api/submissions/${submission.id}/reject`, buyer.cookie, {
      reason: "No proof",
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const again = await call("POST", `/api/submissions/${submission.id}/approve`, buyer.cookie);
    expect([again.statusCode, again.json<{ error: { code: string } }>().error.code]).toEqual([
      409,
      "ALREADY_DECIDED",
    ]);
    await autoApproveDue(ctx.db, new Date(Date.parse(submission.auto_approve_at ?? "") + 86_400_000));
    expect([await statusOf(submission.id), await statusOf(waiting.id)]).toEqual(["rejected", "approved"]);
    expect([await coinsOf(worker), await coinsOf(other)]).toEqual([10, 15]);
  });
});

describe("the submission lists, page by page", () => {
  it("pages the buyer's queue and the worker's history past the first page: no overlap, no gap, at most limit each", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const made: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      const task = await newTask(buyer, { required_workers: 1, payable_amount: 1 });
      const answer = await submit(worker, task.id);
      expect(answer.statusCode).toBe(201);
      made.push(answer.json<Submission>().id);
      clock.advanceMs(1000);
    }
    // Another buyer's and another worker's rows must not show.
    const otherBuyer = await registerUser(ctx.app, "buyer");
    await submit(
      await registerUser(ctx.app, "worker"),
      (await newTask(otherBuyer, { required_workers: 1 })).id,
    );
    for (const list of [
      "/api/buyer/submissions?status=pending&",
      "/api/buyer/submissions?",
      "/api/worker/submissions?",
    ]) {
      const cookie = list.startsWith("/api/buyer") ? buyer.cookie : worker.cookie;
      const seen: string[] = [];
      for (const page of [1, 2, 3]) {
        const answer = await call("GET", `${list}limit=3&page=${page}`, cookie);
        expect(answer.statusCode).toBe(200);
        const body = answer.json<{ items: Submission[]; total: number }>();
        expect(body.total).toBe(7);
        expect(body.items.length).toBe(page < 3 ? 3 : 1);
        seen.push(...body.items.map((item) => item.id));
      }
      // Newest first, each once.
      expect(seen).toEqual([...made].reverse());
    }
  });
});
