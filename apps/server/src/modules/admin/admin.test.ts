import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page, Submission, Task, User, Withdrawal, WithdrawalRequest } from "@taskmint/shared";
import { auditLog, tasks, users } from "../../db/schema/index.ts";
import { postTask, registerUser, signIn, signInAdmin, testAppPerFile } from "../../test/harness.ts";
import * as ledger from "../ledger/service.ts";
import { ensureAdmin } from "../users/service.ts";

let admin: { id: string; cookie: string };

const ctx = testAppPerFile();
beforeAll(async () => {
  admin = await signInAdmin(ctx, "root-admin@example.com");
});

type Method = "GET" | "POST" | "PATCH" | "DELETE";
const call = (method: Method, url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

/** A worker who earned `coins` and asked to withdraw some of them. */
async function workerWithdrawing(coins: number, request: WithdrawalRequest) {
  const worker = await registerUser(ctx.app, "worker");
  await ledger.transfer(ctx.db, {
    from: ledger.MINT,
    to: ledger.walletOf(worker.user.id),
    amount: coins,
    idempotencyKey: `test-earn:${worker.user.id}`,
  });
  const withdrawal = (await call("POST", "/api/withdrawals", worker.cookie, request)).json<Withdrawal>();
  return { worker, withdrawal };
}
const me = (who: { cookie: string }) => call("GET", "/api/me", who.cookie);
const forfeit = { coins: "forfeit" };
const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function newTask(buyer: { cookie: string }, workers: number, pay: number): Promise<Task> {
  const response = await postTask(ctx.app, buyer.cookie, {
    required_workers: workers,
    payable_amount: pay,
    completion_date: days(5),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Task>();
}

describe("changing roles (rule R12)", () => {
  it("changes a worker into a buyer, grants nothing, and audits it", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const changed = await call("PATCH", `/api/admin/users/${worker.user.id}`, admin.cookie, {
      role: "buyer",
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ role: "buyer", coins: 10 });
    expect((await me(worker)).json<{ user: User }>().user).toMatchObject({ role: "buyer", coins: 10 });
    const [entry] = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, worker.user.id));
    expect(entry).toMatchObject({
      actorId: admin.id,
      action: "change_role",
      before: { role: "worker" },
      after: { role: "buyer" },
    });
  });

  it("never demotes or deletes the last admin, and an admin cannot delete themself", async () => {
    const demote = await call("PATCH", `/api/admin/users/${admin.id}`, admin.cookie, { role: "worker" });
    expect(demote.statusCode).toBe(409);
    expect((await call("DELETE", `/api/admin/users/${admin.id}`, admin.cookie, forfeit)).statusCode).toBe(
      409,
    );
    expect((await me(admin)).json<{ user: User }>().user.role).toBe("admin");
  });

  it("lets one of two admins demote the other, but not both at once", async () => {
    const second = await signInAdmin(ctx, "second-admin@example.com");
    const answers = await Promise.all([
      call("PATCH", `/api/admin/users/${second.id}`, admin.cookie, { role: "buyer" }),
      call("PATCH", `/api/admin/users/${admin.id}`, second.cookie, { role: "buyer" }),
    ]);
    // One wins; the other is refused: as the last admin (409) or, once demoted, as no admin at all (403).
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.map((answer) => answer.statusCode).filter((status) => status !== 200)[0]).toBeOneOf([
      403, 409,
    ]);
    // Restore: whoever was demoted becomes an admin again.
    await ensureAdmin(ctx.db, { email: "second-admin@example.com", password: "Admin123" });
    await ensureAdmin(ctx.db, { email: "root-admin@example.com", password: "Admin123" });
    await call("DELETE", `/api/admin/users/${second.id}`, admin.cookie, forfeit);
  });
});

describe("deleting users (rule R12)", () => {
  it("deletes a buyer with open and partly reviewed tasks: refunds open slots, keeps the ledger balanced, ends the session at once", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const partly = await newTask(buyer, 3, 5);
    const open = await newTask(buyer, 2, 4);
    const approvedWorker = await registerUser(ctx.app, "worker");
    const pendingWorker = await registerUser(ctx.app, "worker");
    const first = (
      await call("POST", `/api/tasks/${partly.id}/submissions`, approvedWorker.cookie, {
        submission_details: "done",
      })
    ).json<Submission>();
    await call("POST", `/api/tasks/${partly.id}/submissions`, pendingWorker.cookie, {
      submission_details: "done too",
    });
    await call("POST", `/api/submissions/${first.id}/approve`, buyer.cookie);
    expect((await me(buyer)).json<{ user: User }>().user.coins).toBe(50 - 15 - 8);

    const issuedBefore = -(await ledger.balanceOf(ctx.db, ledger.MINT));
    const deleted = await call("DELETE", `/api/admin/users/${buyer.user.id}`, admin.cookie, forfeit);
    expect(deleted.statusCode).toBe(200);
    expect((await me(buyer)).statusCode).toBe(401);
    const again = await signIn(ctx.app, buyer.email, buyer.password);
    expect(again.statusCode).toBe(403);

    // One open slot of `partly` (5) and both of `open` (8) come back; the pending submission keeps its 5 in escrow.
    // Then the whole wallet (27 + 5 + 8) is forfeited: it goes back to the mint.
    expect(deleted.json()).toEqual({ deleted: true, coins: "forfeit", settled_coins: 27 + 5 + 8 });
    expect(await ledger.balanceOf(ctx.db, ledger.walletOf(buyer.user.id))).toBe(0);
    expect(-(await ledger.balanceOf(ctx.db, ledger.MINT))).toBe(issuedBefore - 40);
    expect(await ledger.balanceOf(ctx.db, ledger.escrowOf(partly.id))).toBe(5);
    expect(await ledger.balanceOf(ctx.db, ledger.escrowOf(open.id))).toBe(0);
    const rows = await ctx.db.select().from(tasks).where(eq(tasks.buyerId, buyer.user.id));
    expect(rows.every((row) => row.status === "closed" && row.deletedAt)).toBe(true);
    expect((await ledger.checkLedger(ctx.db)).problems).toEqual([]);
    const list = (
      await call("GET", `/api/admin/users?q=${encodeURIComponent(buyer.email)}`, admin.cookie)
    ).json<Page<User>>();
    expect(list.total).toBe(0);
  });

  it("deletes a worker with a pending withdrawal and pays out the wallet, held coins included, under the admin's reference", async () => {
    const { worker, withdrawal } = await workerWithdrawing(330, {
      withdrawal_coin: 250,
      payment_system: "Nagad",
      account_number: "01812345678",
    });
    const paidOutBefore = await ledger.balanceOf(ctx.db, ledger.PAYOUT);
    const deleted = await call("DELETE", `/api/admin/users/${worker.user.id}`, admin.cookie, {
      coins: "payout",
      payout_reference: "BANK-7781",
    });
    expect(deleted.json()).toEqual({ deleted: true, coins: "payout", settled_coins: 340 });
    expect(await ledger.balanceOf(ctx.db, ledger.walletOf(worker.user.id))).toBe(0);
    expect(await ledger.balanceOf(ctx.db, ledger.holdOf(withdrawal.id))).toBe(0);
    expect((await ledger.balanceOf(ctx.db, ledger.PAYOUT)) - paidOutBefore).toBe(340);
    const decided = (await call("GET", "/api/admin/withdrawals?limit=100", admin.cookie)).json<
      Page<Withdrawal>
    >();
    expect(decided.items.find((item) => item.id === withdrawal.id)).toMatchObject({ status: "rejected" });
    const [entry] = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, worker.user.id));
    expect(entry?.after).toMatchObject({
      coins: "payout",
      settled_coins: 340,
      payout_reference: "BANK-7781",
    });
    expect(
      (await call("DELETE", `/api/admin/users/${worker.user.id}`, admin.cookie, forfeit)).statusCode,
    ).toBe(404);
  });

  it("rejects a deleted worker's pending submissions, so no later approval pays a wallet no one can use", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const open = await newTask(buyer, 2, 4);
    const worker = await registerUser(ctx.app, "worker");
    const submitted = await call("POST", `/api/tasks/${open.id}/submissions`, worker.cookie, {
      submission_details: "done",
    });
    expect(submitted.statusCode).toBe(201);
    expect((await call("GET", `/api/tasks/${open.id}`)).json<Task>().required_workers).toBe(1);

    const deleted = await call("DELETE", `/api/admin/users/${worker.user.id}`, admin.cookie, forfeit);
    expect(deleted.json()).toEqual({ deleted: true, coins: "forfeit", settled_coins: 10 });
    const mine = (await call("GET", "/api/buyer/submissions?limit=100", buyer.cookie)).json<
      Page<Submission>
    >();
    expect(mine.items.find((item) => item.id === submitted.json<Submission>().id)).toMatchObject({
      status: "rejected",
      reason: "The worker's account was deleted",
    });
    // The slot is free again and its coins still wait in escrow for the next worker.
    expect((await call("GET", `/api/tasks/${open.id}`)).json<Task>().required_workers).toBe(2);
    expect(await ledger.balanceOf(ctx.db, ledger.escrowOf(open.id))).toBe(8);
    expect(await ledger.balanceOf(ctx.db, ledger.walletOf(worker.user.id))).toBe(0);
    const [entry] = await ctx.db.select().from(auditLog).where(eq(auditLog.targetId, worker.user.id));
    expect(entry?.after).toMatchObject({ submissions_rejected: 1 });
  });

  it("needs the admin's choice for the coins: without it (or a payout without reference) nothing changes", async () => {
    const worker = await registerUser(ctx.app, "worker");
    for (const body of [
      undefined,
      {},
      { coins: "refund" },
      { coins: "payout" },
      { coins: "payout", payout_reference: "  " },
    ]) {
      const refused = await call("DELETE", `/api/admin/users/${worker.user.id}`, admin.cookie, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ error: { code: string } }>().error.code).toBe("VALIDATION");
    }
    expect((await me(worker)).json<{ user: User }>().user.coins).toBe(10);
  });

  it("reports a deleted user's wallet or withdrawal hold that still holds coins", async () => {
    const { worker, withdrawal } = await workerWithdrawing(290, {
      withdrawal_coin: 200,
      payment_system: "Bkash",
      account_number: "01712345678",
    });
    expect((await ledger.checkLedger(ctx.db)).problems).toEqual([]);
    // Deleted behind the service's back: nothing settles the wallet or the hold.
    await ctx.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, worker.user.id));
    const report = await ledger.checkLedger(ctx.db);
    expect(report.ok).toBe(false);
    expect([...report.problems].sort()).toEqual([
      `${ledger.holdOf(withdrawal.id)} of deleted user ${worker.user.id} still holds 200`,
      `${ledger.walletOf(worker.user.id)} of deleted user ${worker.user.id} still holds 100`,
    ]);
    // Coins that reach a properly deleted account later (a direct transfer here) are reported too.
    await ledger.transfer(ctx.db, {
      from: ledger.holdOf(withdrawal.id),
      to: ledger.MINT,
      amount: 200,
      idempotencyKey: `test-clear-hold:${withdrawal.id}`,
    });
    await ledger.transfer(ctx.db, {
      from: ledger.walletOf(worker.user.id),
      to: ledger.MINT,
      amount: 100,
      idempotencyKey: `test-clear:${worker.user.id}`,
    });
    expect((await ledger.checkLedger(ctx.db)).problems).toEqual([]);
    await ledger.transfer(ctx.db, {
      from: ledger.MINT,
      to: ledger.walletOf(worker.user.id),
      amount: 7,
      idempotencyKey: `test-strand:${worker.user.id}`,
    });
    expect((await ledger.checkLedger(ctx.db)).problems).toEqual([
      `${ledger.walletOf(worker.user.id)} of deleted user ${worker.user.id} still holds 7`,
    ]);
    await ledger.transfer(ctx.db, {
      from: ledger.walletOf(worker.user.id),
      to: ledger.MINT,
      amount: 7,
      idempotencyKey: `test-unstrand:${worker.user.id}`,
    });
  });
});

describe("admin lists and task deletion", () => {
  it("searches users by name or email and filters by role", async () => {
    const unique = `Zebulon${Date.now()}`;
    const worker = await registerUser(ctx.app, "worker", { name: `${unique} Worker` });
    await registerUser(ctx.app, "buyer", { name: `${unique} Buyer` });
    const byName = (await call("GET", `/api/admin/users?q=${unique}`, admin.cookie)).json<Page<User>>();
    expect(byName.total).toBe(2);
    const workersOnly = (await call("GET", `/api/admin/users?q=${unique}&role=worker`, admin.cookie)).json<
      Page<User>
    >();
    expect(workersOnly.items.map((user) => user.id)).toEqual([worker.user.id]);
    const byEmail = (
      await call("GET", `/api/admin/users?q=${encodeURIComponent(worker.email.toUpperCase())}`, admin.cookie)
    ).json<Page<User>>();
    expect(byEmail.total).toBe(1);
    expect((await call("GET", "/api/admin/users?q=%25", admin.cookie)).statusCode).toBe(200);
  });

  it("deletes any task with the buyer refunded, and records who did it", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const task = await newTask(buyer, 4, 3);
    const listed = (await call("GET", "/api/admin/tasks?limit=100", admin.cookie)).json<Page<Task>>();
    expect(listed.items.map((item) => item.id)).toContain(task.id);
    expect((await call("DELETE", `/api/admin/tasks/${task.id}`, admin.cookie)).json()).toEqual({
      refunded_coins: 12,
    });
    expect((await me(buyer)).json<{ user: User }>().user.coins).toBe(50);
    const audit = (await call("GET", "/api/admin/audit?action=delete_task", admin.cookie)).json<
      Page<{ target_id: string; actor_email: string; after: unknown }>
    >();
    expect(audit.items[0]).toMatchObject({
      target_id: task.id,
      actor_email: "root-admin@example.com",
      after: { refunded_coins: 12 },
      // The task and its buyer by name, read by the list's joins (the task is deleted, its row kept).
      subject: { task_title: task.task_title, buyer_name: buyer.user.name, user_name: null },
    });
  });

  it("names the people and amounts in the audit trail, a deleted user's name included", async () => {
    const { worker, withdrawal } = await workerWithdrawing(300, {
      withdrawal_coin: 200,
      payment_system: "Bkash",
      account_number: "01712345678",
    });
    const decided = await call("POST", `/api/admin/withdrawals/${withdrawal.id}/reject`, admin.cookie, {
      reason: "Account number does not match",
    });
    expect(decided.statusCode, decided.body).toBeLessThan(300);
    expect(
      (await call("DELETE", `/api/admin/users/${worker.user.id}`, admin.cookie, forfeit)).statusCode,
    ).toBe(200);
    const audit = (await call("GET", "/api/admin/audit?limit=100", admin.cookie)).json<
      Page<{ target_id: string; action: string; subject: Record<string, unknown> }>
    >();
    const about = (id: string, action: string) =>
      audit.items.find((entry) => entry.target_id === id && entry.action === action)?.subject;
    expect(about(withdrawal.id, "reject_withdrawal")).toEqual({
      user_name: worker.user.name,
      user_deleted: true,
      task_title: null,
      buyer_name: null,
      coins: 200,
      amount_cents: 1000,
    });
    expect(about(worker.user.id, "delete_user")).toMatchObject({
      user_name: worker.user.name,
      user_deleted: true,
    });
  });
});
