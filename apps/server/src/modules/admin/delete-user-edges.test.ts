import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Submission, Withdrawal } from "@taskmint/shared";
import { submissions, withdrawals } from "../../db/schema/index.ts";
import {
  marketplaceTestFile,
  type RegisteredUser,
  registerUser,
  signInAdmin,
  workerWithCoins,
} from "../../test/harness.ts";

// Rule R12: deleting a user changes their rows only, and only those in the state it ends.

const { ctx, call, newTask, submit } = marketplaceTestFile();
const admin = () => signInAdmin(ctx, "admin-delete-edges@example.com");
const bkash = { withdrawal_coin: 200, payment_system: "Bkash", account_number: "01712345678" };

const workerWith = (coins: number) => workerWithCoins(ctx, coins);
async function withdraw(worker: RegisteredUser) {
  const response = await call("POST", "/api/withdrawals", worker.cookie, bkash);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Withdrawal>();
}
async function submitted(worker: RegisteredUser, taskId: string) {
  const response = await submit(worker, taskId);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Submission>();
}
const withdrawalStatus = async (id: string) =>
  (await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0]?.status;
const submissionStatus = async (id: string) =>
  (await ctx.db.select().from(submissions).where(eq(submissions.id, id)))[0]?.status;

describe("deleting a worker beside other rows (rule R12)", () => {
  it("ends the worker's pending work and withdrawals only: decided ones and another worker's stay as they were", async () => {
    const { cookie } = await admin();
    const buyer = await registerUser(ctx.app, "buyer");
    const task = await newTask(buyer, { required_workers: 3, payable_amount: 5 });
    const other = await newTask(buyer, { required_workers: 1, payable_amount: 5 });
    const [leaving, staying] = [await workerWith(600), await workerWith(400)];

    const paid = await withdraw(leaving);
    const approved = await call("POST", `/api/admin/withdrawals/${paid.id}/approve`, cookie, {
      payout_reference: "TX-PAID",
      confirm_high_risk: true,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const leavingPending = await withdraw(leaving);
    const stayingPending = await withdraw(staying);

    const decided = await submitted(leaving, other.id);
    expect((await call("POST", `/api/submissions/${decided.id}/approve`, buyer.cookie)).statusCode).toBe(200);
    const leavingWork = await submitted(leaving, task.id);
    const stayingWork = await submitted(staying, task.id);

    const removed = await call("DELETE", `/api/admin/users/${leaving.user.id}`, cookie, { coins: "forfeit" });
    expect(removed.statusCode, removed.body).toBe(200);

    expect([
      await withdrawalStatus(paid.id),
      await withdrawalStatus(leavingPending.id),
      await withdrawalStatus(stayingPending.id),
    ]).toEqual(["approved", "rejected", "pending"]);
    expect([
      await submissionStatus(decided.id),
      await submissionStatus(leavingWork.id),
      await submissionStatus(stayingWork.id),
    ]).toEqual(["approved", "rejected", "pending"]);
    // The other worker is still signed in, and their work is still the buyer's to review.
    expect((await call("GET", "/api/me", staying.cookie)).statusCode).toBe(200);
    expect((await call("GET", "/api/me", leaving.cookie)).statusCode).toBe(401);
    expect((await call("POST", `/api/submissions/${stayingWork.id}/approve`, buyer.cookie)).statusCode).toBe(
      200,
    );
  });
});
