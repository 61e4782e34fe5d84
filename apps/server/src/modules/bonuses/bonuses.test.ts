import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Bonus } from "@taskmint/shared";
import { bonuses, notifications } from "../../db/schema/index.ts";
import { marketplaceTestFile, type RegisteredUser, registerUser } from "../../test/harness.ts";

const { ctx, call, coinsOf, pendingSubmission } = marketplaceTestFile();

let keys = 0;
const newKey = () => `bonus-test-${(keys += 1)}-${Date.now()}`;
const sendBonus = (buyer: RegisteredUser, key: string | null, body: object) =>
  call("POST", "/api/bonuses", buyer.cookie, body, key === null ? {} : { "idempotency-key": key });

describe("bonuses (rule R23)", () => {
  it("moves the coins from the buyer's wallet to the worker's and tells the worker", async () => {
    const { buyer, worker, submission, task } = await pendingSubmission({
      required_workers: 1,
      payable_amount: 5,
    });
    const [buyerBefore, workerBefore] = [await coinsOf(buyer), await coinsOf(worker)];
    const response = await sendBonus(buyer, newKey(), {
      submission_id: submission.id,
      coins: 5,
      message: "Great work",
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Bonus>()).toMatchObject({
      coins: 5,
      worker_name: worker.user.name,
      message: "Great work",
    });
    expect(await coinsOf(buyer)).toBe(buyerBefore - 5);
    expect(await coinsOf(worker)).toBe(workerBefore + 5);
    const told = await ctx.db
      .select({ message: notifications.message })
      .from(notifications)
      .where(eq(notifications.userId, worker.user.id));
    expect(told.map((row) => row.message)).toEqual([
      `You received a bonus of 5 coins from ${buyer.user.name} for "${task.task_title}": Great work`,
    ]);
  });

  it("pays once for a retried request, and refuses the key reused for another bonus", async () => {
    const { buyer, worker, submission } = await pendingSubmission();
    const body = { submission_id: submission.id, coins: 3, message: "" };
    const key = newKey();
    const workerBefore = await coinsOf(worker);
    const first = await sendBonus(buyer, key, body);
    const retry = await sendBonus(buyer, key, body);
    expect([first.statusCode, retry.statusCode]).toEqual([201, 201]);
    expect(retry.json<Bonus>()).toEqual(first.json<Bonus>());
    expect(await coinsOf(worker)).toBe(workerBefore + 3);
    const other = await sendBonus(buyer, key, { ...body, coins: 4 });
    expect(other.statusCode).toBe(409);
    expect(other.json<{ error: { code: string } }>().error.code).toBe("IDEMPOTENCY_MISMATCH");
    expect(await coinsOf(worker)).toBe(workerBefore + 3);
    expect(await ctx.db.$count(bonuses, eq(bonuses.submissionId, submission.id))).toBe(1);
  });

  it("keeps each buyer's keys their own: another buyer's bonus under the same key is paid and retried apart", async () => {
    const [one, two] = [await pendingSubmission(), await pendingSubmission()];
    const key = newKey();
    const firstBody = { submission_id: one.submission.id, coins: 2, message: "" };
    const secondBody = { submission_id: two.submission.id, coins: 3, message: "" };
    const [workerOneBefore, workerTwoBefore] = [await coinsOf(one.worker), await coinsOf(two.worker)];
    const first = await sendBonus(one.buyer, key, firstBody);
    const second = await sendBonus(two.buyer, key, secondBody);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json<Bonus>().id).not.toBe(first.json<Bonus>().id);
    for (const [buyer, body, answer] of [
      [one.buyer, firstBody, first],
      [two.buyer, secondBody, second],
    ] as const) {
      const retry = await sendBonus(buyer, key, body);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.json<Bonus>()).toEqual(answer.json<Bonus>());
    }
    expect([await coinsOf(one.worker), await coinsOf(two.worker)]).toEqual([
      workerOneBefore + 2,
      workerTwoBefore + 3,
    ]);
    expect(await ctx.db.$count(bonuses, eq(bonuses.idempotencyKey, key))).toBe(2);
  });

  it("pays once when the same request arrives many times at once", async () => {
    const { buyer, worker, submission } = await pendingSubmission();
    const key = newKey();
    const workerBefore = await coinsOf(worker);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        sendBonus(buyer, key, { submission_id: submission.id, coins: 2, message: "x" }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.json<Bonus>().id)).size).toBe(1);
    expect(await coinsOf(worker)).toBe(workerBefore + 2);
  });

  it("refuses a missing or bad key, bad amounts, a long message, another buyer's work and an empty wallet, paying nothing", async () => {
    const { buyer, worker, submission } = await pendingSubmission({
      required_workers: 2,
      payable_amount: 25,
    });
    const good = { submission_id: submission.id, coins: 1, message: "" };
    const workerBefore = await coinsOf(worker);
    expect((await sendBonus(buyer, null, good)).statusCode).toBe(400);
    expect((await sendBonus(buyer, "", good)).statusCode).toBe(400);
    expect((await sendBonus(buyer, "k".repeat(201), good)).statusCode).toBe(400);
    for (const coins of [0, 1_001, 1.5, "many", -3]) {
      expect((await sendBonus(buyer, newKey(), { ...good, coins })).statusCode, String(coins)).toBe(400);
    }
    expect((await sendBonus(buyer, newKey(), { ...good, message: "m".repeat(501) })).statusCode).toBe(400);
    expect((await sendBonus(buyer, newKey(), { ...good, message: "a\u0000b" })).statusCode).toBe(400);
    const stranger = await registerUser(ctx.app, "buyer");
    expect((await sendBonus(stranger, newKey(), good)).statusCode).toBe(403);
    expect(
      (await sendBonus(buyer, newKey(), { ...good, submission_id: "00000000-0000-4000-8000-000000000000" }))
        .statusCode,
    ).toBe(404);
    // The 2 x 25 task spent the buyer's 50 coins.
    const broke = await sendBonus(buyer, newKey(), good);
    expect(broke.statusCode).toBe(409);
    expect(broke.json<{ error: { code: string } }>().error.code).toBe("INSUFFICIENT_COINS");
    expect(await coinsOf(worker)).toBe(workerBefore);
    expect(await ctx.db.$count(bonuses, eq(bonuses.submissionId, submission.id))).toBe(0);
  });
});
