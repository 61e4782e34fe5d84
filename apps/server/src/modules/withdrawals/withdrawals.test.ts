import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page, User, Withdrawal } from "@taskmint/shared";
import { notifications, withdrawals } from "../../db/schema/index.ts";
import { registerUser, signInAdmin, testAppPerFile, workerWithCoins } from "../../test/harness.ts";
import { PAYOUT, balanceOf, holdOf } from "../ledger/service.ts";

let admin: string;
const ctx = testAppPerFile();
beforeAll(async () => {
  admin = (await signInAdmin(ctx, "admin-w@example.com")).cookie;
});

type Method = "GET" | "POST";
const call = (method: Method, url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
const coinsOf = async (who: { cookie: string }) =>
  (await call("GET", "/api/me", who.cookie)).json<{ user: User }>().user.coins;

const workerWith = (coins: number) => workerWithCoins(ctx, coins);

const bkash = (coins: number) => ({
  withdrawal_coin: coins,
  payment_system: "Bkash",
  account_number: "01712345678",
});

describe("requesting a withdrawal (rule R10)", () => {
  it("holds the coins at once and records coins / 20 dollars", async () => {
    const worker = await workerWith(500);
    const response = await call("POST", "/api/withdrawals", worker.cookie, bkash(215));
    expect(response.statusCode).toBe(201);
    const withdrawal = response.json<Withdrawal>();
    expect(withdrawal).toMatchObject({
      withdrawal_coin: 215,
      withdrawal_amount: 10.75,
      status: "pending",
      worker_email: worker.email,
    });
    expect(await coinsOf(worker)).toBe(285);
    expect(await balanceOf(ctx.db, holdOf(withdrawal.id))).toBe(215);
  });

  it.each([
    ["below 200 coins", bkash(199), 400],
    ["a fractional amount", bkash(200.5), 400],
    ["an unknown system", { ...bkash(200), payment_system: "Cash" }, 400],
    ["a bad Bkash number", { ...bkash(200), account_number: "12345" }, 400],
    ["a PayPal account that is not an email", { ...bkash(200), payment_system: "PayPal" }, 400],
    ["more than the balance", bkash(301), 409],
  ])("refuses %s and holds nothing", async (_case, body, status) => {
    const worker = await workerWith(300);
    const response = await call("POST", "/api/withdrawals", worker.cookie, body);
    expect(response.statusCode).toBe(status);
    expect(await coinsOf(worker)).toBe(300);
    expect(await ctx.db.$count(withdrawals, eq(withdrawals.workerId, worker.user.id))).toBe(0);
  });

  it("withdraws only from the caller's own wallet: a worker cannot withdraw for another", async () => {
    const rich = await workerWith(1000);
    const thief = await workerWith(10);
    const response = await call("POST", "/api/withdrawals", thief.cookie, {
      ...bkash(200),
      worker_email: rich.email,
      worker_id: rich.user.id,
    });
    expect(response.statusCode).toBe(409);
    expect(await coinsOf(rich)).toBe(1000);
  });

  it("is for workers only", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    expect((await call("POST", "/api/withdrawals", buyer.cookie, bkash(200))).statusCode).toBe(403);
    expect((await call("POST", "/api/withdrawals", undefined, bkash(200))).statusCode).toBe(401);
  });

  it("holds exactly 5 of 20 parallel requests of 200 from a 1,000-coin wallet", async () => {
    const worker = await workerWith(1000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call("POST", "/api/withdrawals", worker.cookie, bkash(200))),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(5);
    expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(15);
    expect(await coinsOf(worker)).toBe(0);
    expect(await ctx.db.$count(withdrawals, eq(withdrawals.workerId, worker.user.id))).toBe(5);
  });
});

describe("deciding a withdrawal", () => {
  it("approve moves the hold to payout once and tells the worker", async () => {
    const worker = await workerWith(400);
    const withdrawal = (await call("POST", "/api/withdrawals", worker.cookie, bkash(400))).json<Withdrawal>();
    expect(withdrawal.decided_at).toBeUndefined();
    const paidBefore = await balanceOf(ctx.db, PAYOUT);
    const approved = await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, admin);
    expect(approved.json()).toMatchObject({ status: "approved" });
    // The worker's timeline shows when it was paid: at the decision, not at the request.
    const decidedAt = Date.parse(approved.json<Withdrawal>().decided_at ?? "");
    expect(decidedAt).toBeGreaterThanOrEqual(Date.parse(withdrawal.withdraw_date));
    expect(Date.now() - decidedAt).toBeLessThan(60_000);
    expect(await balanceOf(ctx.db, PAYOUT)).toBe(paidBefore + 400);
    expect(await balanceOf(ctx.db, holdOf(withdrawal.id))).toBe(0);
    for (const again of [
      await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, admin),
      await call("POST", `/api/admin/withdrawals/${withdrawal.id}/reject`, admin, { reason: "Oops" }),
    ]) {
      expect(again.statusCode).toBe(409);
    }
    expect(await ctx.db.$count(notifications, eq(notifications.userId, worker.user.id))).toBe(1);
    const history = (await call("GET", "/api/worker/withdrawals", worker.cookie)).json<Page<Withdrawal>>();
    expect(history.items[0]).toMatchObject({
      id: withdrawal.id,
      status: "approved",
      decided_at: approved.json<Withdrawal>().decided_at,
    });
  });

  it("reject returns the coins to the worker with the reason", async () => {
    const worker = await workerWith(250);
    const withdrawal = (
      await call("POST", "/api/withdrawals", worker.cookie, {
        ...bkash(250),
        payment_system: "PayPal",
        account_number: "w@example.com",
      })
    ).json<Withdrawal>();
    expect(await coinsOf(worker)).toBe(0);
    expect(
      (await call("POST", `/api/admin/withdrawals/${withdrawal.id}/reject`, admin, { reason: "" }))
        .statusCode,
    ).toBe(400);
    const rejected = await call("POST", `/api/admin/withdrawals/${withdrawal.id}/reject`, admin, {
      reason: "Account name mismatch",
    });
    expect(rejected.json()).toMatchObject({ status: "rejected", reason: "Account name mismatch" });
    expect(rejected.json<Withdrawal>().decided_at).toEqual(expect.any(String));
    expect(await coinsOf(worker)).toBe(250);
  });

  it("pays once when two admins approve at the same moment", async () => {
    const worker = await workerWith(200);
    const withdrawal = (await call("POST", "/api/withdrawals", worker.cookie, bkash(200))).json<Withdrawal>();
    const answers = await Promise.all([
      call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, admin),
      call("POST", `/api/admin/withdrawals/${withdrawal.id}/reject`, admin, { reason: "Race" }),
      call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, admin),
    ]);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
  });

  it("lets only admins list and decide", async () => {
    const worker = await workerWith(200);
    const withdrawal = (await call("POST", "/api/withdrawals", worker.cookie, bkash(200))).json<Withdrawal>();
    expect(
      (await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, worker.cookie)).statusCode,
    ).toBe(403);
    expect((await call("GET", "/api/admin/withdrawals?status=pending", worker.cookie)).statusCode).toBe(403);
    const pending = (await call("GET", "/api/admin/withdrawals?status=pending&limit=100", admin)).json<
      Page<Withdrawal>
    >();
    expect(pending.items.map((item) => item.id)).toContain(withdrawal.id);
    expect(pending.items.every((item) => item.status === "pending")).toBe(true);
  });
});

describe("admin stats (rule R14)", () => {
  it("counts workers and buyers, sums wallet coins and completed payments", async () => {
    const before = (await call("GET", "/api/admin/stats", admin)).json<{
      totalWorkers: number;
      totalBuyers: number;
      totalCoins: number;
      totalPayments: number;
    }>();
    await registerUser(ctx.app, "worker");
    await registerUser(ctx.app, "buyer");
    const after = (await call("GET", "/api/admin/stats", admin)).json<typeof before>();
    expect(after).toEqual({
      ...before,
      totalWorkers: before.totalWorkers + 1,
      totalBuyers: before.totalBuyers + 1,
      totalCoins: before.totalCoins + 60,
    });
    const worker = await registerUser(ctx.app, "worker");
    expect((await call("GET", "/api/admin/stats", worker.cookie)).statusCode).toBe(403);
  });
});

describe("daily activity for the admin charts", () => {
  it("counts today's issued and paid-out coins, and gives one row per day", async () => {
    const before = (await call("GET", "/api/admin/stats/daily?days=7", admin)).json<
      { date: string; coins_issued: number; coins_paid_out: number }[]
    >();
    expect(before).toHaveLength(7);
    expect(before.at(-1)?.date).toBe(new Date().toISOString().slice(0, 10));
    const worker = await workerWith(300);
    const withdrawal = (await call("POST", "/api/withdrawals", worker.cookie, bkash(200))).json<Withdrawal>();
    await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, admin);
    const after = (await call("GET", "/api/admin/stats/daily?days=7", admin)).json<typeof before>();
    expect((after.at(-1)?.coins_issued ?? 0) - (before.at(-1)?.coins_issued ?? 0)).toBe(300);
    expect((after.at(-1)?.coins_paid_out ?? 0) - (before.at(-1)?.coins_paid_out ?? 0)).toBe(200);
    expect((await call("GET", "/api/admin/stats/daily?days=0", admin)).statusCode).toBe(400);
  });
});
