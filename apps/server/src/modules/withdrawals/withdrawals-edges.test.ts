import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Withdrawal } from "@taskmint/shared";
import { users, withdrawals } from "../../db/schema/index.ts";
import {
  marketplaceTestFile,
  type RegisteredUser,
  signInAdmin,
  workerWithCoins,
} from "../../test/harness.ts";

// Rule R28's exception, beside rows it must not count: only the worker's own paid withdrawal
// lets an unconfirmed address withdraw again.

const { ctx, call, coinsOf } = marketplaceTestFile();

const bkash = { withdrawal_coin: 200, payment_system: "Bkash", account_number: "01712345678" };
const admin = () => signInAdmin(ctx, "admin-withdrawal-edges@example.com");

const workerWith = (coins: number) => workerWithCoins(ctx, coins);

async function withdraw(worker: RegisteredUser) {
  const response = await call("POST", "/api/withdrawals", worker.cookie, bkash);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Withdrawal>();
}

async function approve(id: string) {
  const approved = await call("POST", `/api/admin/withdrawals/${id}/approve`, (await admin()).cookie, {
    payout_reference: `TX-${id}`,
    confirm_high_risk: true,
  });
  expect(approved.statusCode, approved.body).toBe(200);
}

describe("a withdrawal before the address is confirmed (rule R28)", () => {
  it("counts only the worker's own approved withdrawal: a refused, cancelled or pending one, or another worker's paid one, is not enough", async () => {
    const worker = await workerWith(800);
    const refused = await withdraw(worker);
    const rejected = await call(
      "POST",
      `/api/admin/withdrawals/${refused.id}/reject`,
      (await admin()).cookie,
      {
        reason: "Wrong number",
      },
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    const cancelled = await withdraw(worker);
    expect((await call("POST", `/api/withdrawals/${cancelled.id}/cancel`, worker.cookie)).statusCode).toBe(
      200,
    );
    const pending = await withdraw(worker);
    const other = await workerWith(200);
    await approve((await withdraw(other)).id);
    // An account from before addresses were confirmed.
    await ctx.db.update(users).set({ emailVerified: false }).where(eq(users.id, worker.user.id));

    const blocked = await call("POST", "/api/withdrawals", worker.cookie, bkash);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ error: { code: "EMAIL_NOT_VERIFIED" } });
    expect(await ctx.db.$count(withdrawals, eq(withdrawals.workerId, worker.user.id))).toBe(3);
    expect(await coinsOf(worker)).toBe(600);

    await approve(pending.id);
    await withdraw(worker);
    expect(await coinsOf(worker)).toBe(400);
  });
});
