import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Reservation, TaskDetails, Task, LargePage } from "@taskmint/shared";
import { ledgerTransfers, notifications, reservations, submissions, tasks } from "../../db/schema/index.ts";
import { marketplaceTestFile, type RegisteredUser, registerUser, signInAdmin } from "../../test/harness.ts";
import { balanceOf, escrowOf } from "../ledger/service.ts";
import { expireTasks } from "../tasks/service.ts";
import { expireReservations } from "./service.ts";

const { clock, ctx, call, coinsOf, days, newTask, submit } = marketplaceTestFile();
const reserve = (worker: RegisteredUser, taskId: string) =>
  call("POST", `/api/tasks/${taskId}/reservations`, worker.cookie);
const slotsLeft = async (taskId: string) =>
  (await ctx.db.select({ open: tasks.requiredWorkers }).from(tasks).where(eq(tasks.id, taskId)))[0]?.open;
const activeReservations = (worker: RegisteredUser) =>
  call("GET", "/api/worker/reservations", worker.cookie).then((response) => response.json<Reservation[]>());

/**
 * Rule R20 through the ledger: a task's escrow holds exactly the coins of its open slots, its
 * live reservations and its pending submissions (approved ones were paid out of it; refunded
 * and returned slots left it or came back as open slots).
 */
async function expectSlotsBalanced(taskId: string) {
  const [task] = await ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
  if (!task) throw new Error("no such task");
  const live = await ctx.db.$count(
    reservations,
    and(eq(reservations.taskId, taskId), eq(reservations.status, "active")),
  );
  const pending = await ctx.db.$count(
    submissions,
    and(eq(submissions.taskId, taskId), eq(submissions.status, "pending")),
  );
  expect(task.requiredWorkers).toBeGreaterThanOrEqual(0);
  if (task.status === "closed") expect(live).toBe(0);
  expect(await balanceOf(ctx.db, escrowOf(taskId))).toBe(
    (task.requiredWorkers + live + pending) * task.payableAmount,
  );
}

describe("reserving a slot (rule R20)", () => {
  it("takes a slot for the task's time limit, moves no coin, and shows on the task and in the worker's list", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 2, payable_amount: 3, time_limit_minutes: 30 });
    const transfersBefore = await ctx.db.$count(ledgerTransfers);
    const listedBefore = (await call("GET", "/api/worker/tasks?limit=100", worker.cookie)).json<
      LargePage<Task>
    >();
    const response = await reserve(worker, task.id);
    expect(response.statusCode, response.body).toBe(201);
    const reservation = response.json<Reservation>();
    expect(reservation).toMatchObject({ task_id: task.id, task_title: task.task_title, status: "active" });
    expect(Date.parse(reservation.expires_at) - clock.now().getTime()).toBe(30 * 60_000);
    expect(await ctx.db.$count(ledgerTransfers)).toBe(transfersBefore);
    expect(await slotsLeft(task.id)).toBe(1);
    expect(await activeReservations(worker)).toEqual([reservation]);
    const details = (await call("GET", `/api/tasks/${task.id}`, worker.cookie)).json<TaskDetails>();
    expect(details).toMatchObject({ slots_left: 1, my_reservation: reservation, my_submission: null });
    const other = await registerUser(ctx.app, "worker");
    expect(
      (await call("GET", `/api/tasks/${task.id}`, other.cookie)).json<TaskDetails>().my_reservation,
    ).toBeNull();
    // The worker's list shows the task with their reservations, not among the ones to start.
    const listed = (await call("GET", "/api/worker/tasks?limit=100", worker.cookie)).json<LargePage<Task>>();
    expect(listed.items.map((item) => item.id)).not.toContain(task.id);
    expect(listed.total).toBe(listedBefore.total - 1);
    await expectSlotsBalanced(task.id);
  });

  it("lets the worker submit in the held slot though no slot is free, and never twice", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const holder = await registerUser(ctx.app, "worker");
    const latecomer = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 1 });
    expect((await reserve(holder, task.id)).statusCode).toBe(201);
    expect(await slotsLeft(task.id)).toBe(0);
    const refused = await submit(latecomer, task.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe("NO_SLOTS_LEFT");
    expect((await reserve(latecomer, task.id)).json<{ error: { code: string } }>().error.code).toBe(
      "NO_SLOTS_LEFT",
    );
    expect((await submit(holder, task.id)).statusCode).toBe(201);
    expect(await slotsLeft(task.id)).toBe(0);
    expect(await activeReservations(holder)).toEqual([]);
    const [used] = await ctx.db.select().from(reservations).where(eq(reservations.workerId, holder.user.id));
    expect(used?.status).toBe("submitted");
    expect((await submit(holder, task.id)).json<{ error: { code: string } }>().error.code).toBe(
      "ALREADY_SUBMITTED",
    );
    expect((await reserve(holder, task.id)).json<{ error: { code: string } }>().error.code).toBe(
      "ALREADY_SUBMITTED",
    );
    await expectSlotsBalanced(task.id);
  });

  it("without a reservation, submitting still takes a free slot (reserve and submit at once)", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 2 });
    expect((await submit(worker, task.id)).statusCode).toBe(201);
    expect(await slotsLeft(task.id)).toBe(1);
    await expectSlotsBalanced(task.id);
  });

  it("gives the slot back on cancel, once; only the worker who holds it may cancel", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 1 });
    const reservation = (await reserve(worker, task.id)).json<Reservation>();
    const stranger = await registerUser(ctx.app, "worker");
    expect((await call("DELETE", `/api/reservations/${reservation.id}`, stranger.cookie)).statusCode).toBe(
      404,
    );
    expect((await call("DELETE", `/api/reservations/${reservation.id}`, buyer.cookie)).statusCode).toBe(403);
    const cancelled = await call("DELETE", `/api/reservations/${reservation.id}`, worker.cookie);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<Reservation>().status).toBe("cancelled");
    expect(await slotsLeft(task.id)).toBe(1);
    const again = await call("DELETE", `/api/reservations/${reservation.id}`, worker.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: { code: string } }>().error.code).toBe("NO_RESERVATION");
    expect(await slotsLeft(task.id)).toBe(1);
    // The worker may start it again.
    expect((await reserve(worker, task.id)).statusCode).toBe(201);
    await expectSlotsBalanced(task.id);
  });

  it("runs out after the time limit: the job gives the slot back and tells the worker", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 1, time_limit_minutes: 5 });
    const reservation = (await reserve(worker, task.id)).json<Reservation>();
    clock.advanceMs(5 * 60_000 - 1);
    expect(await activeReservations(worker)).toHaveLength(1);
    clock.advanceMs(1);
    // Run out: no longer listed as live, though the slot waits for the job.
    expect(await activeReservations(worker)).toEqual([]);
    expect(await expireReservations(ctx.db, clock.now())).toBeGreaterThanOrEqual(1);
    const [row] = await ctx.db.select().from(reservations).where(eq(reservations.id, reservation.id));
    expect(row?.status).toBe("expired");
    expect(await slotsLeft(task.id)).toBe(1);
    const told = await ctx.db.select().from(notifications).where(eq(notifications.userId, worker.user.id));
    expect(told.filter((note) => note.message.includes("ran out"))).toHaveLength(1);
    expect(await expireReservations(ctx.db, clock.now())).toBe(0);
    expect(await slotsLeft(task.id)).toBe(1);
    await expectSlotsBalanced(task.id);
  });

  it("a submission after the time ran out, before the job, ends the reservation and takes the slot normally", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 1, time_limit_minutes: 5 });
    const reservation = (await reserve(worker, task.id)).json<Reservation>();
    clock.advanceMs(6 * 60_000);
    expect((await submit(worker, task.id)).statusCode).toBe(201);
    const [row] = await ctx.db.select().from(reservations).where(eq(reservations.id, reservation.id));
    expect(row?.status).toBe("expired");
    expect(await slotsLeft(task.id)).toBe(0);
    await expectSlotsBalanced(task.id);
  });

  it(`allows at most 3 live reservations per worker`, async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const four = [];
    for (let i = 0; i < 4; i += 1) four.push(await newTask(buyer, { required_workers: 1 }));
    const held = [];
    for (const task of four.slice(0, 3)) held.push((await reserve(worker, task.id)).json<Reservation>());
    const fourth = await reserve(worker, four[3]?.id ?? "");
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json<{ error: { code: string } }>().error.code).toBe("RESERVATION_LIMIT");
    expect(await slotsLeft(four[3]?.id ?? "")).toBe(1);
    await call("DELETE", `/api/reservations/${held[0]?.id}`, worker.cookie);
    expect((await reserve(worker, four[3]?.id ?? "")).statusCode).toBe(201);
  });

  it("counts only live reservations toward the limit: one whose time ran out stops counting before the job ends it", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const short = await newTask(buyer, { required_workers: 1, time_limit_minutes: 5 });
    const long = [
      await newTask(buyer, { required_workers: 1, time_limit_minutes: 60 }),
      await newTask(buyer, { required_workers: 1, time_limit_minutes: 60 }),
    ];
    const fourth = await newTask(buyer, { required_workers: 1 });
    const ranOut = (await reserve(worker, short.id)).json<Reservation>();
    for (const task of long) expect((await reserve(worker, task.id)).statusCode).toBe(201);
    clock.advanceMs(5 * 60_000 - 1);
    const early = await reserve(worker, fourth.id);
    expect([early.statusCode, early.json<{ error: { code: string } }>().error.code]).toEqual([
      409,
      "RESERVATION_LIMIT",
    ]);
    clock.advanceMs(1);
    // Its time ran out; the job has not ended it yet.
    const [unswept] = await ctx.db.select().from(reservations).where(eq(reservations.id, ranOut.id));
    expect(unswept?.status).toBe("active");
    const taken = await reserve(worker, fourth.id);
    expect(taken.statusCode, taken.body).toBe(201);
    expect(await activeReservations(worker)).toHaveLength(3);
    expect(await expireReservations(ctx.db, clock.now())).toBeGreaterThanOrEqual(1);
    expect(await slotsLeft(short.id)).toBe(1);
    for (const task of [short, ...long, fourth]) await expectSlotsBalanced(task.id);
  });

  it("a submission a moment before the time runs out is made in the held slot; at the very end the reservation has expired", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const [inTime, atEnd] = [await registerUser(ctx.app, "worker"), await registerUser(ctx.app, "worker")];
    const task = await newTask(buyer, { required_workers: 2, time_limit_minutes: 5 });
    const early = (await reserve(inTime, task.id)).json<Reservation>();
    const late = (await reserve(atEnd, task.id)).json<Reservation>();
    expect(await slotsLeft(task.id)).toBe(0);
    clock.advanceMs(5 * 60_000 - 1);
    expect((await submit(inTime, task.id)).statusCode).toBe(201);
    clock.advanceMs(1);
    expect((await submit(atEnd, task.id)).statusCode).toBe(201);
    const statusOf = async (id: string) =>
      (await ctx.db.select().from(reservations).where(eq(reservations.id, id)))[0]?.status;
    expect(await statusOf(early.id)).toBe("submitted");
    // Ended as expired, its slot given back and taken again by the submission.
    expect(await statusOf(late.id)).toBe("expired");
    expect(await slotsLeft(task.id)).toBe(0);
    await expectSlotsBalanced(task.id);
  });

  it("the job ends a reservation at the moment its time runs out, and leaves a later one on the same task alone", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const [first, second] = [await registerUser(ctx.app, "worker"), await registerUser(ctx.app, "worker")];
    const task = await newTask(buyer, { required_workers: 3, time_limit_minutes: 5 });
    const due = (await reserve(first, task.id)).json<Reservation>();
    clock.advanceMs(60_000);
    const later = (await reserve(second, task.id)).json<Reservation>();
    clock.advanceMs(4 * 60_000);
    expect(await expireReservations(ctx.db, clock.now())).toBeGreaterThanOrEqual(1);
    const rows = await ctx.db.select().from(reservations).where(eq(reservations.taskId, task.id));
    expect(new Map(rows.map((row) => [row.id, row.status]))).toEqual(
      new Map([
        [due.id, "expired"],
        [later.id, "active"],
      ]),
    );
    expect(await slotsLeft(task.id)).toBe(2);
    expect(await activeReservations(second)).toEqual([later]);
    await expectSlotsBalanced(task.id);
  });

  it("refuses a second reservation of the same task, a closed or missing task, and non-workers", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 2 });
    expect((await reserve(worker, task.id)).statusCode).toBe(201);
    const twice = await reserve(worker, task.id);
    expect(twice.statusCode).toBe(409);
    expect(await slotsLeft(task.id)).toBe(1);
    expect((await call("POST", `/api/tasks/${task.id}/reservations`, buyer.cookie)).statusCode).toBe(403);
    expect((await call("POST", `/api/tasks/${task.id}/reservations`)).statusCode).toBe(401);
    expect((await reserve(worker, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    const closed = await newTask(buyer, { required_workers: 1 });
    await call("DELETE", `/api/tasks/${closed.id}`, buyer.cookie);
    expect((await reserve(worker, closed.id)).statusCode).toBe(404);
    await expectSlotsBalanced(task.id);
  });
});

describe("a task closing with live reservations (rules R8, R9, R20)", () => {
  it("deleting refunds the reserved slots with the open ones, ends the reservations and tells the workers", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const a = await registerUser(ctx.app, "worker");
    const b = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 4, payable_amount: 5 });
    await reserve(a, task.id);
    await reserve(b, task.id);
    await submit(await registerUser(ctx.app, "worker"), task.id);
    expect(await coinsOf(buyer)).toBe(50 - 20);
    const deleted = await call("DELETE", `/api/tasks/${task.id}`, buyer.cookie);
    // One open slot and two reserved ones come back; the pending submission keeps its escrow.
    expect(deleted.json()).toEqual({ refunded_coins: 15 });
    expect(await coinsOf(buyer)).toBe(50 - 5);
    for (const worker of [a, b]) {
      expect(await activeReservations(worker)).toEqual([]);
      const told = await ctx.db.select().from(notifications).where(eq(notifications.userId, worker.user.id));
      expect(told.filter((note) => note.message.includes("your reservation ended"))).toHaveLength(1);
      expect((await submit(worker, task.id)).statusCode).toBe(404);
    }
    expect(
      await ctx.db.$count(
        reservations,
        and(eq(reservations.taskId, task.id), eq(reservations.status, "ended")),
      ),
    ).toBe(2);
    await expectSlotsBalanced(task.id);
  });

  it("deleting ends only the task's live reservations: a cancelled one, a used one and another task's stay as they were", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const [holder, canceller, submitter] = [
      await registerUser(ctx.app, "worker"),
      await registerUser(ctx.app, "worker"),
      await registerUser(ctx.app, "worker"),
    ];
    const task = await newTask(buyer, { required_workers: 4, payable_amount: 5 });
    const other = await newTask(buyer, { required_workers: 1, payable_amount: 5 });
    const live = (await reserve(holder, task.id)).json<Reservation>();
    const elsewhere = (await reserve(holder, other.id)).json<Reservation>();
    const cancelled = (await reserve(canceller, task.id)).json<Reservation>();
    expect((await call("DELETE", `/api/reservations/${cancelled.id}`, canceller.cookie)).statusCode).toBe(
      200,
    );
    const used = (await reserve(submitter, task.id)).json<Reservation>();
    expect((await submit(submitter, task.id)).statusCode).toBe(201);
    // Of 4 slots: 2 open, 1 held by `holder`, 1 pending submission.
    expect(await slotsLeft(task.id)).toBe(2);
    const deleted = await call("DELETE", `/api/tasks/${task.id}`, buyer.cookie);
    expect(deleted.json()).toEqual({ refunded_coins: 3 * 5 });
    const rows = await ctx.db.select().from(reservations).where(eq(reservations.workerId, holder.user.id));
    const statuses = new Map(
      [...rows, ...(await ctx.db.select().from(reservations).where(eq(reservations.taskId, task.id)))].map(
        (row) => [row.id, row.status],
      ),
    );
    expect(statuses).toEqual(
      new Map([
        [live.id, "ended"],
        [elsewhere.id, "active"],
        [cancelled.id, "cancelled"],
        [used.id, "submitted"],
      ]),
    );
    expect(await slotsLeft(other.id)).toBe(0);
    for (const worker of [canceller, submitter]) {
      const told = await ctx.db.select().from(notifications).where(eq(notifications.userId, worker.user.id));
      expect(told.filter((note) => note.message.includes("your reservation ended"))).toHaveLength(0);
    }
    await expectSlotsBalanced(task.id);
    await expectSlotsBalanced(other.id);
  });

  it("expiry at the completion date refunds the reserved slots too", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, {
      required_workers: 2,
      payable_amount: 4,
      completion_date: days(0),
      time_limit_minutes: 1440,
    });
    await reserve(worker, task.id);
    clock.advanceDays(1);
    expect(await expireTasks(ctx.db, clock.now())).toBeGreaterThanOrEqual(1);
    expect(await coinsOf(buyer)).toBe(50);
    expect(await balanceOf(ctx.db, escrowOf(task.id))).toBe(0);
    await expectSlotsBalanced(task.id);
  });

  it("a deleted worker's reservations end and their slots return to the tasks", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 1 });
    await reserve(worker, task.id);
    const admin = await signInAdmin(ctx, "reservations-admin@example.com");
    const removed = await call("DELETE", `/api/admin/users/${worker.user.id}`, admin.cookie, {
      coins: "forfeit",
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await slotsLeft(task.id)).toBe(1);
    await expectSlotsBalanced(task.id);
  });

  it("deleting a worker leaves another worker's reservation of the same task live", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const [leaving, staying] = [await registerUser(ctx.app, "worker"), await registerUser(ctx.app, "worker")];
    const task = await newTask(buyer, { required_workers: 3 });
    const gone = (await reserve(leaving, task.id)).json<Reservation>();
    const kept = (await reserve(staying, task.id)).json<Reservation>();
    const admin = await signInAdmin(ctx, "reservations-admin@example.com");
    const removed = await call("DELETE", `/api/admin/users/${leaving.user.id}`, admin.cookie, {
      coins: "forfeit",
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const rows = await ctx.db.select().from(reservations).where(eq(reservations.taskId, task.id));
    expect(new Map(rows.map((row) => [row.id, row.status]))).toEqual(
      new Map([
        [gone.id, "cancelled"],
        [kept.id, "active"],
      ]),
    );
    expect(await slotsLeft(task.id)).toBe(2);
    expect(await activeReservations(staying)).toEqual([kept]);
    await expectSlotsBalanced(task.id);
  });
});

describe("reservations racing (rule R20, real parallel requests)", () => {
  it("30 workers racing for 10 slots: exactly 10 reservations", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const task = await newTask(buyer, { required_workers: 10, payable_amount: 1 });
    const workers = await Promise.all(Array.from({ length: 30 }, () => registerUser(ctx.app, "worker")));
    const answers = await Promise.all(workers.map((worker) => reserve(worker, task.id)));
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(10);
    expect(codes.filter((code) => code === 409)).toHaveLength(20);
    expect(await slotsLeft(task.id)).toBe(0);
    expect(await ctx.db.$count(reservations, eq(reservations.taskId, task.id))).toBe(10);
    await expectSlotsBalanced(task.id);
  });

  it("one worker's parallel reservations: one per task, three in all", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const task = await newTask(buyer, { required_workers: 5 });
    const same = await Promise.all(Array.from({ length: 5 }, () => reserve(worker, task.id)));
    expect(same.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    expect(await slotsLeft(task.id)).toBe(4);
    const others = [];
    for (let i = 0; i < 5; i += 1) others.push(await newTask(buyer, { required_workers: 1 }));
    const spread = await Promise.all(others.map((other) => reserve(worker, other.id)));
    expect(spread.filter((answer) => answer.statusCode === 201)).toHaveLength(2);
    expect(
      spread.filter(
        (answer) => answer.json<{ error?: { code: string } }>().error?.code === "RESERVATION_LIMIT",
      ),
    ).toHaveLength(3);
    expect(await activeReservations(worker)).toHaveLength(3);
    for (const other of [task, ...others]) await expectSlotsBalanced(other.id);
  });

  it("one worker reserving and submitting at once: one slot taken, and no reservation left live beside the submission", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    for (let round = 0; round < 10; round += 1) {
      const worker = await registerUser(ctx.app, "worker");
      const task = await newTask(buyer, { required_workers: 3, payable_amount: 1 });
      const [reserved, submitted] = await Promise.all([reserve(worker, task.id), submit(worker, task.id)]);
      expect(submitted.statusCode).toBe(201);
      expect(await slotsLeft(task.id)).toBe(2);
      const live = await ctx.db.$count(
        reservations,
        and(eq(reservations.taskId, task.id), eq(reservations.status, "active")),
      );
      expect(live).toBe(0);
      // A reservation made first is used by the submission; one made after it is refused.
      if (reserved.statusCode === 201)
        expect(
          (await ctx.db.select().from(reservations).where(eq(reservations.taskId, task.id)))[0]?.status,
        ).toBe("submitted");
      else expect(reserved.statusCode).toBe(409);
      await expectSlotsBalanced(task.id);
    }
  });

  it("cancel, expiry, submission and deletion racing: the reservation ends once and the slot is counted once", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    for (let round = 0; round < 4; round += 1) {
      const worker = await registerUser(ctx.app, "worker");
      const task = await newTask(buyer, { required_workers: 2, payable_amount: 1, time_limit_minutes: 5 });
      const reservation = (await reserve(worker, task.id)).json<Reservation>();
      clock.advanceMs(5 * 60_000);
      await Promise.all([
        call("DELETE", `/api/reservations/${reservation.id}`, worker.cookie),
        expireReservations(ctx.db, clock.now()),
        submit(worker, task.id),
        round % 2 === 0 ? call("DELETE", `/api/tasks/${task.id}`, buyer.cookie) : Promise.resolve(),
      ]);
      const [row] = await ctx.db.select().from(reservations).where(eq(reservations.id, reservation.id));
      expect(row?.status).not.toBe("active");
      expect(row?.endedAt).not.toBeNull();
      await expectSlotsBalanced(task.id);
    }
  });
});
