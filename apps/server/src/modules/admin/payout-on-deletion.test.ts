import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PayoutReview, Submission } from "@taskmint/shared";
import { auditLog, ledgerTransfers, users } from "../../db/schema/index.ts";
import {
  marketplaceCalls,
  registerUser,
  signInAdmin,
  TestClock,
  testAppPerFile,
  type RegisteredUser,
} from "../../test/harness.ts";
import { balanceOf, MINT, PAYOUT, transfer, walletOf } from "../ledger/service.ts";

// Rule R30: coins paid out when an admin deletes an account get the review a withdrawal gets
// (a confirmed address, the risk shown, a high risk confirmed, the reference recorded).

// An hour ahead of the database's clock, which dates accounts and transfers: the review looks back from now.
const clock = new TestClock(new Date(Date.now() + 3_600_000));
const ctx = testAppPerFile({ clock });
const { buyCoins: buy, call, newTask, submit } = marketplaceCalls(() => ctx.app, clock);
const admin = () => signInAdmin(ctx, "admin-deletions@example.com");

const review = async (cookie: string, userId: string) =>
  call("GET", `/api/admin/users/${userId}/payout-review`, cookie);
const remove = (cookie: string, userId: string, body: object) =>
  ctx.app.inject({ method: "DELETE", url: `/api/admin/users/${userId}`, headers: { cookie }, payload: body });
const isDeleted = async (userId: string) =>
  (await ctx.db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)))[0]
    ?.deletedAt !== null;

/** The first request of a session from this device: what the risk signals record. */
async function seenOn(who: RegisteredUser, device: string) {
  const response = await ctx.app.inject({
    method: "GET",
    url: "/api/me",
    remoteAddress: "203.0.113.9",
    headers: { cookie: `${who.cookie.replace(/tm_device=[^;]*(; )?/, "")}; tm_device=${device}` },
  });
  expect(response.statusCode).toBe(200);
}

/** A worker paid 300 coins by a buyer who signed in on the same device: a high risk. */
async function selfDealingWorker() {
  const device = randomUUID();
  const buyer = await registerUser(ctx.app, "buyer", { name: "Same Device Buyer" });
  const worker = await registerUser(ctx.app, "worker", { name: "Same Device Worker" });
  await seenOn(buyer, device);
  await seenOn(worker, device);
  await buy(buyer, "coins-1000");
  const task = await newTask(buyer, { required_workers: 1, payable_amount: 300 });
  const submission = (await submit(worker, task.id)).json<Submission>();
  expect((await call("POST", `/api/submissions/${submission.id}/approve`, buyer.cookie)).statusCode).toBe(
    200,
  );
  return worker;
}

describe("paying out a deleted account's coins (rule R30)", () => {
  it("shows the review first: balance, whether they may be paid, and the risk", async () => {
    const { cookie } = await admin();
    const worker = await selfDealingWorker();
    const answer = await review(cookie, worker.user.id);
    expect(answer.statusCode, answer.body).toBe(200);
    const { balance, may_be_paid, risk } = answer.json<PayoutReview>();
    expect(balance).toBe(310);
    expect(may_be_paid).toBe(true);
    expect(risk.level).toBe("high");
    expect(risk.reasons).toContain(
      "Signed in on the same device as buyer Same Device Buyer, who paid them 300 coins",
    );
    expect((await review(cookie, randomUUID())).statusCode).toBe(404);
  });

  it("pays a high risk only when confirmed, and records the risk and the reference", async () => {
    const { cookie } = await admin();
    const worker = await selfDealingWorker();
    const transfersBefore = await ctx.db.$count(ledgerTransfers);
    const refused = await remove(cookie, worker.user.id, { coins: "payout", payout_reference: "BK-77" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: { code: "RISK_CONFIRMATION_REQUIRED", details: { risk: { level: "high" } } },
    });
    // Nothing happened: the account, its sessions and its coins are as they were.
    expect(await isDeleted(worker.user.id)).toBe(false);
    expect((await call("GET", "/api/me", worker.cookie)).statusCode).toBe(200);
    expect(await ctx.db.$count(ledgerTransfers)).toBe(transfersBefore);

    const payoutBefore = await balanceOf(ctx.db, PAYOUT);
    const paid = await remove(cookie, worker.user.id, {
      coins: "payout",
      payout_reference: "BK-77",
      confirm_high_risk: true,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toEqual({ deleted: true, coins: "payout", settled_coins: 310 });
    expect(await balanceOf(ctx.db, PAYOUT)).toBe(payoutBefore + 310);
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, worker.user.id), eq(auditLog.action, "delete_user")));
    expect(audit?.after).toMatchObject({
      coins: "payout",
      payout_reference: "BK-77",
      settled_coins: 310,
      risk: { level: "high" },
    });
  });

  it("refuses to pay an address never confirmed, and changes nothing; forfeiting needs no address", async () => {
    const { cookie } = await admin();
    const unconfirmed = await registerUser(ctx.app, "worker", { unverified: true });
    await transfer(ctx.db, {
      from: MINT,
      to: walletOf(unconfirmed.user.id),
      amount: 90,
      idempotencyKey: "unconfirmed",
    });
    const answer = await review(cookie, unconfirmed.user.id);
    expect(answer.json()).toMatchObject({ balance: 100, may_be_paid: false });

    const refused = await remove(cookie, unconfirmed.user.id, {
      coins: "payout",
      payout_reference: "BK-1",
      confirm_high_risk: true,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: "EMAIL_NOT_VERIFIED" } });
    expect(await isDeleted(unconfirmed.user.id)).toBe(false);
    expect(await balanceOf(ctx.db, walletOf(unconfirmed.user.id))).toBe(100);

    const forfeited = await remove(cookie, unconfirmed.user.id, { coins: "forfeit" });
    expect(forfeited.statusCode, forfeited.body).toBe(200);
    expect(await isDeleted(unconfirmed.user.id)).toBe(true);
  });

  it("pays a confirmed, unremarkable account without a second confirmation", async () => {
    const { cookie } = await admin();
    const worker = await registerUser(ctx.app, "worker");
    await transfer(ctx.db, { from: MINT, to: walletOf(worker.user.id), amount: 40, idempotencyKey: "plain" });
    const { risk } = (await review(cookie, worker.user.id)).json<PayoutReview>();
    expect(risk.level).not.toBe("high");
    const paid = await remove(cookie, worker.user.id, { coins: "payout", payout_reference: "BK-2" });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ settled_coins: 50 });
    // A deleted account has nothing left to review.
    expect((await review(cookie, worker.user.id)).statusCode).toBe(404);
  });
});
