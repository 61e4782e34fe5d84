import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  type AppealCase,
  type AuditRecord,
  type LedgerReport,
  type Page,
  type Submission,
} from "@taskmint/shared";
import { appeals, auditLog, notifications, tasks } from "../../db/schema/index.ts";
import { marketplaceTestFile, type RegisteredUser, registerUser, signInAdmin } from "../../test/harness.ts";
import { balanceOf, escrowOf } from "../ledger/service.ts";

const { clock, ctx, call, coinsOf, newTask, submit } = marketplaceTestFile();

let adminCookie = "";
const admin = async () => {
  adminCookie ||= (await signInAdmin(ctx, "appeals-admin@example.com")).cookie;
  return adminCookie;
};

const slotsOf = async (taskId: string) =>
  (await ctx.db.select({ open: tasks.requiredWorkers }).from(tasks).where(eq(tasks.id, taskId)))[0]?.open;

/** A buyer's task (2 slots x 5 coins unless told), a worker's submission to it, rejected. */
async function rejectedSubmission(input: { required_workers?: number; payable_amount?: number } = {}) {
  const buyer = await registerUser(ctx.app, "buyer");
  const task = await newTask(buyer, { required_workers: 2, payable_amount: 5, ...input });
  const worker = await registerUser(ctx.app, "worker");
  const submitted = await submit(worker, task.id);
  expect(submitted.statusCode, submitted.body).toBe(201);
  const submission = submitted.json<Submission>();
  const rejected = await call("POST", `/api/submissions/${submission.id}/reject`, buyer.cookie, {
    reason: "The screenshot is missing",
  });
  expect(rejected.statusCode, rejected.body).toBe(200);
  // Only a rejection can be appealed: a pending submission has no appeal deadline.
  expect(submission.appeal_until).toBeNull();
  return { buyer, task, worker, submission: rejected.json<Submission>() };
}

/** New workers take `count` open slots of the task. */
async function fillSlots(taskId: string, count: number) {
  for (let n = 0; n < count; n += 1)
    expect((await submit(await registerUser(ctx.app, "worker"), taskId)).statusCode).toBe(201);
  expect(await slotsOf(taskId)).toBe(0);
}

const appeal = (worker: RegisteredUser, id: string, message = "The screenshot is in the second link") =>
  call("POST", `/api/submissions/${id}/appeal`, worker.cookie, { message });
const overturn = (buyer: RegisteredUser, id: string) =>
  call("POST", `/api/submissions/${id}/appeal/overturn`, buyer.cookie);
const uphold = (buyer: RegisteredUser, id: string, answer = "The link shows another page") =>
  call("POST", `/api/submissions/${id}/appeal/uphold`, buyer.cookie, { answer });
const escalate = (worker: RegisteredUser, id: string) =>
  call("POST", `/api/submissions/${id}/appeal/escalate`, worker.cookie);
const decide = async (id: string, decision: "overturn" | "uphold", answer = "Checked the proof") =>
  call("POST", `/api/admin/appeals/${id}/decide`, await admin(), { decision, answer });

const codeOf = (response: { json: <T>() => T }) => response.json<{ error: { code: string } }>().error.code;

/** A rejected submission whose appeal the buyer upheld and the worker escalated. */
async function escalatedAppeal(input: { required_workers?: number; payable_amount?: number } = {}) {
  const found = await rejectedSubmission(input);
  expect((await appeal(found.worker, found.submission.id)).statusCode).toBe(200);
  expect((await uphold(found.buyer, found.submission.id)).statusCode).toBe(200);
  expect((await escalate(found.worker, found.submission.id)).statusCode).toBe(200);
  return found;
}

describe("appealing a rejection (rule R22)", () => {
  it("lets the worker appeal once, with a message, and tells the buyer", async () => {
    const { buyer, worker, submission, task } = await rejectedSubmission();
    // The contract says until when (seven days after the rejection), so the browser need not work it out.
    expect(Date.parse(submission.appeal_until ?? "")).toBe(
      Date.parse(submission.decided_at ?? "") + 7 * DAY_MS,
    );
    const response = await appeal(worker, submission.id);
    expect(response.statusCode, response.body).toBe(200);
    const appealed = response.json<Submission>();
    expect(appealed.status).toBe("rejected");
    expect(appealed.appeal_until).toBeNull();
    expect(appealed.appeal).toMatchObject({
      status: "open",
      message: "The screenshot is in the second link",
      answer: null,
      decided_by: null,
      paid_from: null,
    });
    const again = await appeal(worker, submission.id, "Once more");
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe("APPEAL_CLOSED");
    const told = await ctx.db
      .select({ message: notifications.message })
      .from(notifications)
      .where(eq(notifications.userId, buyer.user.id));
    expect(told.map((row) => row.message)).toContain(
      `${worker.user.name} appealed your rejection of their work for "${task.task_title}"`,
    );
    // The buyer's list of appeals to answer holds exactly this one.
    const open = (await call("GET", "/api/buyer/submissions?appeal=open", buyer.cookie)).json<
      Page<Submission>
    >();
    expect(open.total).toBe(1);
    expect(open.items.map((item) => item.id)).toEqual([submission.id]);
  });

  it("refuses an appeal of work that is not rejected, not the worker's, after 7 days, or with a bad message", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const task = await newTask(buyer);
    const worker = await registerUser(ctx.app, "worker");
    const pending = (await submit(worker, task.id)).json<Submission>();
    const early = await appeal(worker, pending.id);
    expect([early.statusCode, codeOf(early)]).toEqual([409, "APPEAL_CLOSED"]);

    const rejected = await rejectedSubmission();
    const stranger = await registerUser(ctx.app, "worker");
    expect((await appeal(stranger, rejected.submission.id)).statusCode).toBe(403);
    for (const message of ["", "   ", "a\u0000b", "x".repeat(1_001)]) {
      const bad = await appeal(rejected.worker, rejected.submission.id, message);
      expect(bad.statusCode, message.slice(0, 10)).toBe(400);
    }
    expect(await ctx.db.$count(appeals, eq(appeals.submissionId, rejected.submission.id))).toBe(0);
    const unknown = await appeal(rejected.worker, "00000000-0000-4000-8000-000000000000");
    expect(unknown.statusCode).toBe(404);

    clock.advanceDays(7);
    clock.advanceMs(60_000);
    const late = await appeal(rejected.worker, rejected.submission.id);
    expect([late.statusCode, codeOf(late)]).toEqual([409, "APPEAL_CLOSED"]);
  });

  it("accepts an appeal late on the seventh day, and refuses one just after it", async () => {
    const inTime = await rejectedSubmission();
    const tooLate = await rejectedSubmission();
    clock.advanceDays(7);
    clock.advanceMs(-60_000);
    const accepted = await appeal(inTime.worker, inTime.submission.id);
    expect(accepted.statusCode, accepted.body).toBe(200);
    clock.advanceMs(2 * 60_000);
    const refused = await appeal(tooLate.worker, tooLate.submission.id);
    expect([refused.statusCode, codeOf(refused)]).toEqual([409, "APPEAL_CLOSED"]);
    expect(await ctx.db.$count(appeals, eq(appeals.submissionId, tooLate.submission.id))).toBe(0);
  });

  it("lets only the task's buyer answer an appeal: another buyer's uphold or overturn changes nothing", async () => {
    const { worker, submission } = await rejectedSubmission();
    await appeal(worker, submission.id);
    const otherBuyer = await registerUser(ctx.app, "buyer");
    const workerBefore = await coinsOf(worker);
    for (const refused of [
      await uphold(otherBuyer, submission.id),
      await overturn(otherBuyer, submission.id),
    ])
      expect([refused.statusCode, codeOf(refused)]).toEqual([403, "FORBIDDEN"]);
    const [row] = await ctx.db.select().from(appeals).where(eq(appeals.submissionId, submission.id));
    expect(row).toMatchObject({ status: "open", answer: null });
    expect(await coinsOf(worker)).toBe(workerBefore);
  });

  it("moves each step only from its own states: the buyer cannot uphold an escalated appeal, admins decide only escalated ones, nothing escalates a decided one", async () => {
    const statusOf = async (id: string) =>
      (await ctx.db.select().from(appeals).where(eq(appeals.submissionId, id)))[0]?.status;
    // Open, upheld by the buyer: not the admins' to decide yet.
    const open = await rejectedSubmission();
    await appeal(open.worker, open.submission.id);
    const upheld = await rejectedSubmission();
    await appeal(upheld.worker, upheld.submission.id);
    await uphold(upheld.buyer, upheld.submission.id);
    for (const [found, status] of [
      [open, "open"],
      [upheld, "upheld_by_buyer"],
    ] as const) {
      const workerBefore = await coinsOf(found.worker);
      for (const decision of ["overturn", "uphold"] as const) {
        const refused = await decide(found.submission.id, decision);
        expect([refused.statusCode, codeOf(refused)], `${decision} ${status}`).toEqual([
          409,
          "APPEAL_CLOSED",
        ]);
      }
      expect(await statusOf(found.submission.id)).toBe(status);
      expect(await coinsOf(found.worker)).toBe(workerBefore);
    }
    // The buyer may change their mind after upholding, and pays.
    const workerBefore = await coinsOf(upheld.worker);
    const changed = await overturn(upheld.buyer, upheld.submission.id);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await coinsOf(upheld.worker)).toBe(workerBefore + 5);

    // Escalated after 3 days of silence: the buyer can no longer uphold it.
    const silent = await rejectedSubmission();
    await appeal(silent.worker, silent.submission.id);
    const decidedByBuyer = await rejectedSubmission();
    await appeal(decidedByBuyer.worker, decidedByBuyer.submission.id);
    expect((await overturn(decidedByBuyer.buyer, decidedByBuyer.submission.id)).statusCode).toBe(200);
    const decidedByAdmins = await escalatedAppeal();
    expect((await decide(decidedByAdmins.submission.id, "uphold")).statusCode).toBe(200);
    clock.advanceDays(4);
    expect((await escalate(silent.worker, silent.submission.id)).statusCode).toBe(200);
    const late = await uphold(silent.buyer, silent.submission.id);
    expect([late.statusCode, codeOf(late)]).toEqual([409, "APPEAL_CLOSED"]);
    expect(await statusOf(silent.submission.id)).toBe("escalated");
    // Decided appeals older than 3 days stay decided.
    for (const [found, status] of [
      [decidedByBuyer, "overturned"],
      [decidedByAdmins, "upheld"],
    ] as const) {
      const refused = await escalate(found.worker, found.submission.id);
      expect([refused.statusCode, codeOf(refused)], status).toEqual([409, "APPEAL_CLOSED"]);
      expect(await statusOf(found.submission.id)).toBe(status);
    }
    await decide(silent.submission.id, "uphold");
  });

  it("the buyer overturns from the task's escrow, taking an open slot; the worker is paid once and counts it approved", async () => {
    const { buyer, worker, submission, task } = await rejectedSubmission({
      required_workers: 2,
      payable_amount: 5,
    });
    expect(await slotsOf(task.id)).toBe(2);
    await appeal(worker, submission.id);
    const [workerBefore, buyerBefore] = [await coinsOf(worker), await coinsOf(buyer)];
    const response = await overturn(buyer, submission.id);
    expect(response.statusCode, response.body).toBe(200);
    const overturned = response.json<Submission>();
    expect(overturned.status).toBe("approved");
    expect(overturned.appeal).toMatchObject({
      status: "overturned",
      decided_by: "buyer",
      paid_from: "escrow",
    });
    expect(overturned.worker_reputation).toEqual({ approval_rate: 100, decided: 1, level: "new" });
    expect(await coinsOf(worker)).toBe(workerBefore + 5);
    expect(await coinsOf(buyer)).toBe(buyerBefore);
    expect(await slotsOf(task.id)).toBe(1);
    expect(await balanceOf(ctx.db, escrowOf(task.id))).toBe(5);
    const twice = await overturn(buyer, submission.id);
    expect([twice.statusCode, codeOf(twice)]).toEqual([409, "APPEAL_CLOSED"]);
    expect(await coinsOf(worker)).toBe(workerBefore + 5);
  });

  it("pays from the buyer's wallet when the task has no open slot, and refuses a buyer who cannot pay", async () => {
    // 1 slot x 5: the rejection gives the slot back, another worker takes it.
    const rich = await rejectedSubmission({ required_workers: 1, payable_amount: 5 });
    await fillSlots(rich.task.id, 1);
    await appeal(rich.worker, rich.submission.id);
    const buyerBefore = await coinsOf(rich.buyer);
    const paid = await overturn(rich.buyer, rich.submission.id);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<Submission>().appeal?.paid_from).toBe("buyer");
    expect(await coinsOf(rich.buyer)).toBe(buyerBefore - 5);

    // 2 slots x 25 spends the buyer's 50 coins; two other workers take both slots after the rejection.
    const poor = await rejectedSubmission({ required_workers: 2, payable_amount: 25 });
    await fillSlots(poor.task.id, 2);
    expect(await slotsOf(poor.task.id)).toBe(0);
    expect(await coinsOf(poor.buyer)).toBe(0);
    await appeal(poor.worker, poor.submission.id);
    const workerBefore = await coinsOf(poor.worker);
    const refused = await overturn(poor.buyer, poor.submission.id);
    expect([refused.statusCode, codeOf(refused)]).toEqual([409, "INSUFFICIENT_COINS"]);
    const after = (await call("GET", "/api/worker/submissions", poor.worker.cookie)).json<Page<Submission>>();
    expect(after.items.find((item) => item.id === poor.submission.id)).toMatchObject({
      status: "rejected",
      appeal: { status: "open" },
    });
    expect(await coinsOf(poor.worker)).toBe(workerBefore);
  });

  it("lets the worker escalate after an uphold at once, or after 3 days of silence, and not before", async () => {
    const upheld = await rejectedSubmission();
    await appeal(upheld.worker, upheld.submission.id);
    const early = await escalate(upheld.worker, upheld.submission.id);
    expect([early.statusCode, codeOf(early)]).toEqual([409, "APPEAL_CLOSED"]);
    const answered = await uphold(upheld.buyer, upheld.submission.id);
    expect(answered.json<Submission>().appeal).toMatchObject({
      status: "upheld_by_buyer",
      answer: "The link shows another page",
      decided_by: null,
    });
    expect((await uphold(upheld.buyer, upheld.submission.id)).statusCode).toBe(409);
    expect((await escalate(await registerUser(ctx.app, "worker"), upheld.submission.id)).statusCode).toBe(
      403,
    );
    const escalated = await escalate(upheld.worker, upheld.submission.id);
    expect(escalated.statusCode, escalated.body).toBe(200);
    expect(escalated.json<Submission>().appeal?.status).toBe("escalated");

    const silent = await rejectedSubmission();
    await appeal(silent.worker, silent.submission.id);
    clock.advanceDays(3);
    clock.advanceMs(-60_000);
    expect((await escalate(silent.worker, silent.submission.id)).statusCode).toBe(409);
    clock.advanceMs(60_000);
    expect((await escalate(silent.worker, silent.submission.id)).statusCode).toBe(200);
  });

  it("the admins see escalated appeals, oldest first, paged without overlap or gap", async () => {
    const escalated: string[] = [];
    for (let n = 0; n < 3; n += 1) {
      escalated.push((await escalatedAppeal()).submission.id);
      clock.advanceMs(1_000);
    }
    const cookie = await admin();
    const all = (await call("GET", "/api/admin/appeals?limit=100", cookie)).json<Page<AppealCase>>();
    const ours = all.items.map((item) => item.id).filter((id) => escalated.includes(id));
    expect(ours).toEqual(escalated);
    // The evidence for the decision: what the task asked for and both sides' records.
    const first = all.items.find((item) => item.id === escalated[0]);
    expect(first?.task_detail).toBeTruthy();
    expect(first?.submission_info).toBeTruthy();
    expect(first?.buyer_reputation.decided).toBeGreaterThanOrEqual(0);
    expect(first?.worker_reputation.decided).toBeGreaterThanOrEqual(1);
    expect(first?.appeal?.status).toBe("escalated");
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(all.total / 2); page += 1) {
      const items = (await call("GET", `/api/admin/appeals?limit=2&page=${page}`, cookie)).json<
        Page<Submission>
      >().items;
      expect(items.length).toBeLessThanOrEqual(2);
      seen.push(...items.map((item) => item.id));
    }
    expect(seen).toEqual(all.items.map((item) => item.id));
    for (const id of escalated) await decide(id, "uphold");
  });

  it("an admin's uphold is final; an admin's overturn is paid by the platform when the buyer cannot pay, audited and reported", async () => {
    const kept = await escalatedAppeal();
    const upheld = await decide(kept.submission.id, "uphold", "The proof does not show the task");
    expect(upheld.statusCode, upheld.body).toBe(200);
    expect(upheld.json<Submission>().appeal).toMatchObject({
      status: "upheld",
      decided_by: "admin",
      answer: "The proof does not show the task",
    });
    expect((await overturn(kept.buyer, kept.submission.id)).statusCode).toBe(409);
    expect((await decide(kept.submission.id, "overturn")).statusCode).toBe(409);

    const poor = await rejectedSubmission({ required_workers: 2, payable_amount: 25 });
    await fillSlots(poor.task.id, 2);
    await appeal(poor.worker, poor.submission.id);
    await uphold(poor.buyer, poor.submission.id);
    await escalate(poor.worker, poor.submission.id);
    const reportBefore = (await call("GET", "/api/admin/ledger/check", await admin())).json<LedgerReport>();
    const workerBefore = await coinsOf(poor.worker);
    const paid = await decide(poor.submission.id, "overturn", "The proof is fine");
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<Submission>()).toMatchObject({
      status: "approved",
      appeal: {
        status: "overturned",
        decided_by: "admin",
        paid_from: "platform",
        answer: "The proof is fine",
      },
    });
    expect(await coinsOf(poor.worker)).toBe(workerBefore + 25);
    expect(await coinsOf(poor.buyer)).toBe(0);
    const report = (await call("GET", "/api/admin/ledger/check", await admin())).json<LedgerReport>();
    expect(report.ok).toBe(true);
    expect(report.platform_paid - reportBefore.platform_paid).toBe(25);
    expect(report.issued - reportBefore.issued).toBe(25);
    const audit = (await call("GET", "/api/admin/audit?action=decide_appeal&limit=100", await admin())).json<
      Page<AuditRecord>
    >();
    const entry = audit.items.find((item) => item.target_id === poor.submission.id);
    expect(entry).toMatchObject({
      target_type: "submission",
      after: { appeal: "overturned", paid_from: "platform", coins: 25 },
    });
    expect(
      await ctx.db.$count(
        auditLog,
        and(eq(auditLog.targetId, kept.submission.id), eq(auditLog.action, "decide_appeal")),
      ),
    ).toBe(1);
  });

  it("pays from the buyer's wallet when the task was deleted meanwhile", async () => {
    const found = await escalatedAppeal({ required_workers: 2, payable_amount: 5 });
    const deleted = await call("DELETE", `/api/tasks/${found.task.id}`, found.buyer.cookie);
    expect(deleted.json()).toEqual({ refunded_coins: 10 });
    const buyerBefore = await coinsOf(found.buyer);
    const response = await overturn(found.buyer, found.submission.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Submission>().appeal?.paid_from).toBe("buyer");
    expect(await coinsOf(found.buyer)).toBe(buyerBefore - 5);
  });

  it("pays once when the buyer and an admin overturn at once, and when two admins do", async () => {
    for (let round = 0; round < 6; round += 1) {
      const found = await escalatedAppeal({ required_workers: 2, payable_amount: 5 });
      const workerBefore = await coinsOf(found.worker);
      const answers = await Promise.all(
        round % 2 === 0
          ? [overturn(found.buyer, found.submission.id), decide(found.submission.id, "overturn")]
          : [decide(found.submission.id, "overturn"), decide(found.submission.id, "uphold")],
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses, answers.map((answer) => answer.body).join(" | ")).toEqual([200, 409]);
      const overturned = answers.some(
        (answer) => answer.statusCode === 200 && answer.json<Submission>().status === "approved",
      );
      expect(await coinsOf(found.worker)).toBe(workerBefore + (overturned ? 5 : 0));
    }
  });

  it("pays once when the buyer overturns while the task is being deleted", async () => {
    for (let round = 0; round < 4; round += 1) {
      const found = await rejectedSubmission({ required_workers: 2, payable_amount: 5 });
      await appeal(found.worker, found.submission.id);
      const [workerBefore, buyerBefore] = [await coinsOf(found.worker), await coinsOf(found.buyer)];
      const [overturned, deleted] = await Promise.all([
        overturn(found.buyer, found.submission.id),
        call("DELETE", `/api/tasks/${found.task.id}`, found.buyer.cookie),
      ]);
      expect([overturned.statusCode, deleted.statusCode]).toEqual([200, 200]);
      const paidFrom = overturned.json<Submission>().appeal?.paid_from;
      const refunded = deleted.json<{ refunded_coins: number }>().refunded_coins;
      // Overturn first: it takes one of the two open slots and deletion refunds the other; else
      // deletion refunds both and the buyer's wallet pays.
      expect(paidFrom === "escrow" ? refunded : refunded - 10).toBe(paidFrom === "escrow" ? 5 : 0);
      expect(await coinsOf(found.worker)).toBe(workerBefore + 5);
      expect(await coinsOf(found.buyer)).toBe(buyerBefore + refunded - (paidFrom === "buyer" ? 5 : 0));
    }
  });

  it("pays no deleted worker: an overturn of a deleted worker's appeal is refused and changes nothing", async () => {
    const found = await escalatedAppeal({ required_workers: 2, payable_amount: 5 });
    const deleted = await call("DELETE", `/api/admin/users/${found.worker.user.id}`, await admin(), {
      coins: "forfeit",
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const refused = await decide(found.submission.id, "overturn");
    expect([refused.statusCode, codeOf(refused)]).toEqual([409, "CONFLICT"]);
    const [row] = await ctx.db.select().from(appeals).where(eq(appeals.submissionId, found.submission.id));
    expect(row?.status).toBe("escalated");
    expect(await slotsOf(found.task.id)).toBe(2);
  });

  it("keeps the worker's reputation: rejections, approvals and overturns", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const ids: string[] = [];
    for (let n = 0; n < 4; n += 1) {
      const task = await newTask(buyer, { required_workers: 1, payable_amount: 1 });
      ids.push((await submit(worker, task.id)).json<Submission>().id);
    }
    const [first, second, third] = ids as [string, string, string];
    await call("POST", `/api/submissions/${first}/approve`, buyer.cookie);
    await call("POST", `/api/submissions/${second}/reject`, buyer.cookie, { reason: "no" });
    await call("POST", `/api/submissions/${third}/reject`, buyer.cookie, { reason: "no" });
    const reputation = () => call("GET", `/api/workers/${worker.user.id}/reputation`, buyer.cookie);
    expect((await reputation()).json()).toEqual({ approval_rate: 33, decided: 3, level: "new" });
    await appeal(worker, second);
    await overturn(buyer, second);
    expect((await reputation()).json()).toEqual({ approval_rate: 66, decided: 3, level: "new" });
    const listed = (await call("GET", "/api/buyer/submissions?status=pending", buyer.cookie)).json<
      Page<Submission>
    >();
    expect(listed.items[0]?.worker_reputation).toEqual({ approval_rate: 66, decided: 3, level: "new" });
    expect(
      (await call("GET", "/api/workers/00000000-0000-4000-8000-000000000000/reputation", buyer.cookie))
        .statusCode,
    ).toBe(404);
  });
});
