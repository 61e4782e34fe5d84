import { and, count, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import type { Task } from "@taskmint/shared";
import { idempotencyKeys, tasks } from "../db/schema/index.ts";
import { checkLedger, MINT, transfer, walletOf } from "../modules/ledger/service.ts";
import {
  buyerWithKey,
  labellingTaskFields,
  marketplaceTestFile,
  multipart,
  registerUser,
  type BuyerWithKey,
  type RegisteredUser,
} from "../test/harness.ts";
import { deleteExpiredIdempotencyKeys } from "./idempotency.ts";

// Issue 35 point 2 (decision 036): every POST a key can make honours an Idempotency-Key.

const { ctx, clock, call, days, coinsOf } = marketplaceTestFile();

const HOUR = 60 * 60 * 1000;

/** POST /api/tasks as a program: multipart (a new boundary each time), no image, the key. */
async function postTask(
  buyer: BuyerWithKey,
  idempotencyKey: string | undefined,
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const body = await multipart({
    ...labellingTaskFields(days(7)),
    ...fields,
  });
  return ctx.app.inject({
    method: "POST",
    url: "/api/tasks",
    payload: body.payload,
    headers: {
      ...body.headers,
      authorization: `Bearer ${buyer.key}`,
      ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }),
    },
  });
}

const tasksOf = async (buyer: RegisteredUser) =>
  (await ctx.db.select({ n: count() }).from(tasks).where(eq(tasks.buyerId, buyer.user.id)))[0]?.n;

function expectError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<{ error: { code: string } }>().error.code).toBe(code);
}

describe("one Idempotency-Key, one action", () => {
  let buyer: BuyerWithKey;
  beforeAll(async () => {
    buyer = await buyerWithKey(ctx, 1_000);
  });

  it("20 parallel retries post one task, move its coins once and all answer the first answer", async () => {
    const before = await coinsOf(buyer);
    const answers = await Promise.all(Array.from({ length: 20 }, () => postTask(buyer, "order-1")));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    const ids = new Set(answers.map((answer) => answer.json<Task>().id));
    expect(ids.size).toBe(1);
    expect(answers.filter((answer) => answer.headers["idempotent-replayed"] === "true").length).toBe(19);
    for (const answer of answers) expect(answer.json()).toEqual(answers[0]?.json());
    expect(await tasksOf(buyer)).toBe(1);
    expect(await coinsOf(buyer)).toBe(before - 10);
    expect((await checkLedger(ctx.db)).problems).toEqual([]);
    // A program's task without an image shows its category's picture.
    const task = answers[0]?.json<Task>();
    expect(task?.task_image_url).toBe("/api/categories/other/picture");
    const picture = await call("GET", task?.task_image_url ?? "");
    expect(picture.statusCode).toBe(200);
    expect(picture.headers["content-type"]).toContain("image/svg+xml");
  });

  it("refuses the same key with another body or on another route, changing nothing", async () => {
    const before = await coinsOf(buyer);
    expectError(await postTask(buyer, "order-1", { payable_amount: "6" }), 409, "IDEMPOTENCY_MISMATCH");
    const worker = await registerUser(ctx.app, "worker");
    const block = await call(
      "POST",
      "/api/buyer/blocks",
      undefined,
      { worker_id: worker.user.id },
      { authorization: `Bearer ${buyer.key}`, "idempotency-key": "order-1" },
    );
    expectError(block, 409, "IDEMPOTENCY_MISMATCH");
    expect(await tasksOf(buyer)).toBe(1);
    expect(await coinsOf(buyer)).toBe(before);
  });

  it("takes the key with the buyer's session too: key and cookie requests share the buyer's keys", async () => {
    const body = await multipart(labellingTaskFields(days(7)));
    const viaCookie = await ctx.app.inject({
      method: "POST",
      url: "/api/tasks",
      payload: body.payload,
      headers: { ...body.headers, cookie: buyer.cookie, "idempotency-key": "order-1" },
    });
    // The same request under the same key: the first answer again (no image needed, as it is a replay).
    expect(viaCookie.statusCode, viaCookie.body).toBe(201);
    expect(viaCookie.headers["idempotent-replayed"]).toBe("true");
    expect(await tasksOf(buyer)).toBe(1);
  });

  it("a session's task still needs an image of its own", async () => {
    const body = await multipart(labellingTaskFields(days(7)));
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/tasks",
      payload: body.payload,
      headers: { ...body.headers, cookie: buyer.cookie },
    });
    expectError(response, 400, "VALIDATION");
    expect(response.json<{ error: { details: Record<string, string> } }>().error.details.task_image).toBe(
      "Task image is required",
    );
  });

  it("one buyer's key does not collide with another buyer's same key", async () => {
    const other = await buyerWithKey(ctx, 1_000);
    const mine = await postTask(other, "order-1", { payable_amount: "7" });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.headers["idempotent-replayed"]).toBeUndefined();
    expect(await tasksOf(other)).toBe(1);
    expect(await tasksOf(buyer)).toBe(1);
  });
});

describe("24 hours", () => {
  it("replays at 23h59 and treats the key as new at 24h01; the cleanup forgets keys past 24 hours", async () => {
    const buyer = await buyerWithKey(ctx, 1_000);
    // One body throughout: the due date is fixed before the clock moves.
    const due = { completion_date: days(7) };
    const before = await coinsOf(buyer);
    const first = await postTask(buyer, "daily", due);
    expect(first.statusCode, first.body).toBe(201);
    clock.advanceMs(24 * HOUR - 60_000);
    const replay = await postTask(buyer, "daily", due);
    expect(replay.statusCode).toBe(201);
    expect(replay.json<Task>().id).toBe(first.json<Task>().id);
    expect(await tasksOf(buyer)).toBe(1);
    clock.advanceMs(2 * 60_000);
    const again = await postTask(buyer, "daily", due);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBeUndefined();
    expect(again.json<Task>().id).not.toBe(first.json<Task>().id);
    expect(await tasksOf(buyer)).toBe(2);
    expect(await coinsOf(buyer)).toBe(before - 20);

    await postTask(buyer, "to-forget", due);
    const mine = and(eq(idempotencyKeys.ownerId, buyer.user.id), eq(idempotencyKeys.key, "to-forget"));
    clock.advanceMs(24 * HOUR - 60_000);
    await deleteExpiredIdempotencyKeys(ctx.db, clock.now());
    expect((await ctx.db.select().from(idempotencyKeys).where(mine)).length).toBe(1);
    clock.advanceMs(2 * 60_000);
    expect(await deleteExpiredIdempotencyKeys(ctx.db, clock.now())).toBeGreaterThanOrEqual(1);
    expect((await ctx.db.select().from(idempotencyKeys).where(mine)).length).toBe(0);
  });
});

describe("failures and bad keys", () => {
  it("a failed first request keeps nothing: the retry after fixing the cause runs", async () => {
    const buyer = await buyerWithKey(ctx, 0);
    const coins = await coinsOf(buyer);
    expectError(
      await postTask(buyer, "big", { payable_amount: String(coins + 1), required_workers: "1" }),
      409,
      "INSUFFICIENT_COINS",
    );
    expect(await tasksOf(buyer)).toBe(0);
    await transfer(ctx.db, {
      from: MINT,
      to: walletOf(buyer.user.id),
      amount: 1,
      idempotencyKey: `top-up:${buyer.user.id}`,
    });
    const retry = await postTask(buyer, "big", { payable_amount: String(coins + 1), required_workers: "1" });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(await tasksOf(buyer)).toBe(1);
    expect(await coinsOf(buyer)).toBe(0);
  });

  it("refuses an empty, a too long or a control-character key with 400 JSON", async () => {
    const buyer = await buyerWithKey(ctx, 1_000);
    for (const bad of ["", "k".repeat(256), "a\u0000b", "two words"]) {
      const response = await postTask(buyer, bad);
      expectError(response, 400, "VALIDATION");
    }
    expect(await tasksOf(buyer)).toBe(0);
  });
});
