import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Payment, Submission, Task, Withdrawal } from "@taskmint/shared";
import { balanceOf, checkLedger, MINT, transfer, walletOf } from "./modules/ledger/service.ts";
import { expireReservations } from "./modules/reservations/service.ts";
import { autoApproveDue } from "./modules/submissions/service.ts";
import { expireTasks } from "./modules/tasks/service.ts";
import { SOAK_SCALE } from "./test/soak.ts";
import {
  postTask,
  registerUser,
  signInAdmin,
  testAppPerFile,
  TestClock,
  type RegisteredUser,
  type TestContext,
} from "./test/harness.ts";

// A model-based test of the marketplace: random sequences of domain actions run against
// the real server and against a small model of the rules; after every step every
// wallet agrees with the model and the ledger's invariants hold.

interface ModelUser {
  id: string;
  cookie: string;
  coins: number;
}
interface ModelTask {
  id: string;
  buyer: number;
  pay: number;
  slots: number;
  open: boolean;
  deleted: boolean;
  due: string;
}
interface Model {
  buyers: ModelUser[];
  workers: ModelUser[];
  tasks: ModelTask[];
  submissions: {
    id: string;
    task: number;
    worker: number;
    status: "pending" | "approved" | "rejected";
    dueAt: number;
  }[];
  withdrawals: { id: string; worker: number; coins: number; pending: boolean }[];
  submitted: Set<string>;
  /** Rule R20: each holds a slot of its task while live. */
  reservations: { id: string; task: number; worker: number; live: boolean }[];
}

/** The worker's live reservation of the task, if any. */
const liveReservation = (m: Model, task: number, worker: number) =>
  m.reservations.find((r) => r.live && r.task === task && r.worker === worker);

const clock = new TestClock(new Date("2030-01-01T12:00:00Z"));
let admin = "";
type Method = "GET" | "POST" | "PATCH" | "DELETE";
const call = (method: Method, url: string, cookie: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const day = (offset: number) =>
  new Date(clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
const pick = <T>(list: T[], index: number) => list[index % Math.max(list.length, 1)];
/** The worker and the task that two random numbers pick, with their places in the model. */
function pickWorkerAndTask(m: Model, who: number, which: number) {
  const workerIndex = who % Math.max(m.workers.length, 1);
  const taskIndex = which % Math.max(m.tasks.length, 1);
  const worker = m.workers[workerIndex];
  const task = m.tasks[taskIndex];
  return worker && task ? { workerIndex, worker, taskIndex, task } : undefined;
}

type Command = fc.AsyncCommand<Model, TestContext>;
const command = (
  name: string,
  check: (model: Readonly<Model>) => boolean,
  run: (model: Model) => Promise<void>,
): Command => ({
  check,
  async run(model) {
    await run(model);
    for (const user of [...model.buyers, ...model.workers])
      expect(await balanceOf(ctx.db, walletOf(user.id)), `${name}: wallet`).toBe(user.coins);
  },
  toString: () => name,
});

const commands = [
  fc
    .record({
      who: fc.nat(),
      pack: fc.constantFrom("coins-10", "coins-150"),
      card: fc.constantFrom("4242424242424242", "4000000000000002"),
    })
    .map(({ who, pack, card }) =>
      command(
        `buy ${pack} ${card}`,
        (m) => m.buyers.length > 0,
        async (m) => {
          const buyer = pick(m.buyers, who);
          if (!buyer) return;
          const { payment } = (await call("POST", "/api/payments", buyer.cookie, { package_id: pack })).json<{
            payment: Payment;
          }>();
          const paid = (
            await call("POST", `/api/payments/${payment.id}/sandbox-confirm`, buyer.cookie, {
              card_number: card,
              exp_month: 1,
              exp_year: 2099,
              cvc: "123",
            })
          ).json<Payment>();
          const ok = card.startsWith("4242");
          expect(paid.status).toBe(ok ? "completed" : "failed");
          if (ok) buyer.coins += pack === "coins-10" ? 10 : 150;
        },
      ),
    ),
  fc
    .record({
      who: fc.nat(),
      workers: fc.integer({ min: 1, max: 4 }),
      pay: fc.integer({ min: 1, max: 40 }),
      days: fc.integer({ min: 0, max: 5 }),
    })
    .map(({ who, workers, pay, days }) =>
      command(
        `task ${workers}x${pay} due +${days}d`,
        (m) => m.buyers.length > 0,
        async (m) => {
          const buyerIndex = who % m.buyers.length;
          const buyer = m.buyers[buyerIndex];
          if (!buyer) return;
          const response = await postTask(ctx.app, buyer.cookie, {
            required_workers: workers,
            payable_amount: pay,
            completion_date: day(days),
          });
          if (workers * pay > buyer.coins) {
            expect(response.statusCode).toBe(409);
            return;
          }
          expect(response.statusCode, response.body).toBe(201);
          buyer.coins -= workers * pay;
          m.tasks.push({
            id: response.json<Task>().id,
            buyer: buyerIndex,
            pay,
            slots: workers,
            open: true,
            deleted: false,
            due: day(days),
          });
        },
      ),
    ),
  fc.record({ who: fc.nat(), which: fc.nat() }).map(({ who, which }) =>
    command(
      "submit",
      (m) => m.tasks.length > 0 && m.workers.length > 0,
      async (m) => {
        const picked = pickWorkerAndTask(m, who, which);
        if (!picked) return;
        const { workerIndex, worker, taskIndex, task } = picked;
        const response = await call("POST", `/api/tasks/${task.id}/submissions`, worker.cookie, {
          submission_details: "done",
        });
        const key = `${task.id}:${worker.id}`;
        const already = m.submitted.has(key);
        // A live reservation holds the worker's slot; without one a free slot is needed.
        const held = liveReservation(m, taskIndex, workerIndex);
        const open = !task.deleted && task.open && task.due >= day(0);
        const allowed = !already && open && (held !== undefined || task.slots > 0);
        expect(response.statusCode, response.body).toBe(allowed ? 201 : !already && task.deleted ? 404 : 409);
        if (!allowed) return;
        if (held) held.live = false;
        else task.slots -= 1;
        m.submitted.add(key);
        m.submissions.push({
          id: response.json<Submission>().id,
          task: taskIndex,
          worker: workerIndex,
          status: "pending",
          dueAt: clock.now().getTime() + 3 * 86_400_000,
        });
      },
    ),
  ),
  fc.record({ which: fc.nat(), approve: fc.boolean() }).map(({ which, approve }) =>
    command(
      approve ? "approve" : "reject",
      (m) => m.submissions.length > 0,
      async (m) => {
        const submission = pick(m.submissions, which);
        const task = submission && m.tasks[submission.task];
        if (!submission || !task) return;
        const buyer = m.buyers[task.buyer];
        const worker = m.workers[submission.worker];
        if (!buyer || !worker) return;
        const response = await call(
          "POST",
          `/api/submissions/${submission.id}/${approve ? "approve" : "reject"}`,
          buyer.cookie,
          approve ? undefined : { reason: "no" },
        );
        if (submission.status !== "pending") {
          expect(response.statusCode).toBe(409);
          return;
        }
        expect(response.statusCode, response.body).toBe(200);
        submission.status = approve ? "approved" : "rejected";
        if (approve) worker.coins += task.pay;
        else if (task.open) task.slots += 1;
        else buyer.coins += task.pay;
      },
    ),
  ),
  fc.nat().map((which) =>
    command(
      "delete task",
      (m) => m.tasks.length > 0,
      async (m) => {
        const task = pick(m.tasks, which);
        const buyer = task && m.buyers[task.buyer];
        if (!task || !buyer) return;
        const response = await call("DELETE", `/api/tasks/${task.id}`, buyer.cookie);
        if (task.deleted) {
          expect(response.statusCode).toBe(404);
          return;
        }
        const taskIndex = m.tasks.indexOf(task);
        const held = m.reservations.filter((r) => r.live && r.task === taskIndex);
        const refund = task.open ? (task.slots + held.length) * task.pay : 0;
        expect(response.json()).toEqual({ refunded_coins: refund });
        buyer.coins += refund;
        for (const reservation of held) reservation.live = false;
        Object.assign(task, { slots: 0, open: false, deleted: true });
      },
    ),
  ),
  fc.record({ who: fc.nat(), which: fc.nat() }).map(({ who, which }) =>
    command(
      "reserve",
      (m) => m.tasks.length > 0 && m.workers.length > 0,
      async (m) => {
        const picked = pickWorkerAndTask(m, who, which);
        if (!picked) return;
        const { workerIndex, worker, taskIndex, task } = picked;
        const response = await call("POST", `/api/tasks/${task.id}/reservations`, worker.cookie);
        const atLimit = m.reservations.filter((r) => r.live && r.worker === workerIndex).length >= 3;
        const already = m.submitted.has(`${task.id}:${worker.id}`);
        const allowed =
          !atLimit &&
          !already &&
          liveReservation(m, taskIndex, workerIndex) === undefined &&
          !task.deleted &&
          task.open &&
          task.slots > 0 &&
          task.due >= day(0);
        expect(response.statusCode, response.body).toBe(
          allowed ? 201 : !atLimit && !already && task.deleted ? 404 : 409,
        );
        if (!allowed) return;
        task.slots -= 1;
        m.reservations.push({
          id: response.json<{ id: string }>().id,
          task: taskIndex,
          worker: workerIndex,
          live: true,
        });
      },
    ),
  ),
  fc.nat().map((which) =>
    command(
      "cancel reservation",
      (m) => m.reservations.length > 0,
      async (m) => {
        const reservation = pick(m.reservations, which);
        const worker = reservation && m.workers[reservation.worker];
        const task = reservation && m.tasks[reservation.task];
        if (!reservation || !worker || !task) return;
        const response = await call("DELETE", `/api/reservations/${reservation.id}`, worker.cookie);
        expect(response.statusCode, response.body).toBe(reservation.live ? 200 : 409);
        if (!reservation.live) return;
        reservation.live = false;
        task.slots += 1;
      },
    ),
  ),
  fc.record({ who: fc.nat(), coins: fc.integer({ min: 200, max: 320 }) }).map(({ who, coins }) =>
    command(
      `withdraw ${coins}`,
      (m) => m.workers.length > 0,
      async (m) => {
        const workerIndex = who % m.workers.length;
        const worker = m.workers[workerIndex];
        if (!worker) return;
        const response = await call("POST", "/api/withdrawals", worker.cookie, {
          withdrawal_coin: coins,
          payment_system: "Rocket",
          account_number: "01912345678",
        });
        expect(response.statusCode).toBe(coins <= worker.coins ? 201 : 409);
        if (coins > worker.coins) return;
        worker.coins -= coins;
        m.withdrawals.push({ id: response.json<Withdrawal>().id, worker: workerIndex, coins, pending: true });
      },
    ),
  ),
  fc.record({ which: fc.nat(), approve: fc.boolean() }).map(({ which, approve }) =>
    command(
      approve ? "pay out" : "refuse payout",
      (m) => m.withdrawals.length > 0,
      async (m) => {
        const withdrawal = pick(m.withdrawals, which);
        const worker = withdrawal && m.workers[withdrawal.worker];
        if (!withdrawal || !worker) return;
        const response = await call(
          "POST",
          `/api/admin/withdrawals/${withdrawal.id}/${approve ? "approve" : "reject"}`,
          admin,
          approve ? undefined : { reason: "no" },
        );
        expect(response.statusCode).toBe(withdrawal.pending ? 200 : 409);
        if (!withdrawal.pending) return;
        withdrawal.pending = false;
        if (!approve) worker.coins += withdrawal.coins;
      },
    ),
  ),
  fc.integer({ min: 1, max: 4 }).map((days) =>
    command(
      `jobs after +${days}d`,
      () => true,
      async (m) => {
        clock.advanceDays(days);
        const now = clock.now();
        await autoApproveDue(ctx.db, now);
        await expireTasks(ctx.db, now);
        await expireReservations(ctx.db, now);
        for (const submission of m.submissions) {
          const task = m.tasks[submission.task];
          const worker = m.workers[submission.worker];
          if (submission.status === "pending" && submission.dueAt <= now.getTime() && task && worker) {
            submission.status = "approved";
            worker.coins += task.pay;
          }
        }
        for (const [index, task] of m.tasks.entries()) {
          const buyer = m.buyers[task.buyer];
          const held = m.reservations.filter((r) => r.live && r.task === index);
          if (task.open && task.due < day(0) && buyer) {
            // Closing refunds the reserved slots with the open ones.
            buyer.coins += (task.slots + held.length) * task.pay;
            Object.assign(task, { slots: 0, open: false });
          } else if (task.open) task.slots += held.length; // run out: the slots come back
          for (const reservation of held) reservation.live = false;
        }
      },
    ),
  ),
];

let buyers: RegisteredUser[] = [];
let workers: RegisteredUser[] = [];

const ctx = testAppPerFile({ clock });
beforeAll(async () => {
  admin = (await signInAdmin(ctx, "model-admin@example.com")).cookie;
  buyers = await Promise.all([registerUser(ctx.app, "buyer"), registerUser(ctx.app, "buyer")]);
  workers = await Promise.all([
    registerUser(ctx.app, "worker"),
    registerUser(ctx.app, "worker"),
    registerUser(ctx.app, "worker"),
  ]);
});

let seeds = 0;

/** The same accounts for every run, topped up through the ledger itself so withdrawals and big tasks stay reachable. */
async function topUp(users: RegisteredUser[], amount: number): Promise<ModelUser[]> {
  const model = [];
  for (const user of users) {
    seeds += 1;
    await transfer(ctx.db, {
      from: MINT,
      to: walletOf(user.user.id),
      amount,
      idempotencyKey: `model-seed:${seeds}`,
    });
    model.push({
      id: user.user.id,
      cookie: user.cookie,
      coins: await balanceOf(ctx.db, walletOf(user.user.id)),
    });
  }
  return model;
}

describe("the marketplace against its model", () => {
  it("agrees with the model after every step, and the ledger holds", async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 100, size: "max" }), async (scenario) => {
        // Settle what earlier runs left behind (every task due within days, every review pending), so the model starts from the truth.
        clock.advanceDays(30);
        await autoApproveDue(ctx.db, clock.now());
        await expireTasks(ctx.db, clock.now());
        const model: Model = {
          buyers: await topUp(buyers, 100),
          workers: await topUp(workers, 250),
          tasks: [],
          submissions: [],
          withdrawals: [],
          submitted: new Set(),
          reservations: [],
        };
        await fc.asyncModelRun(() => ({ model, real: ctx }), scenario);
        steps += [...scenario].length;
        expect((await checkLedger(ctx.db)).problems).toEqual([]);
      }),
      { numRuns: 60 * SOAK_SCALE },
    );
    console.info(`model-based run: ${steps} steps`);
    expect(steps).toBeGreaterThan(1000);
  }, 600_000);
});

// The same marketplace with actions raced in parallel batches. Who wins a race is not
// predictable, so the model follows the answers; what must hold is that every wallet
// equals the sum of what the answers say happened, slots match, and the ledger balances.
describe("the marketplace under parallel batches", () => {
  interface Race {
    name: string;
    run(m: Model): Promise<void>;
  }
  const races: fc.Arbitrary<Race>[] = [
    fc.record({ who: fc.nat(), which: fc.nat() }).map(({ who, which }) => ({
      name: "submit",
      async run(m: Model) {
        const picked = pickWorkerAndTask(m, who, which);
        if (!picked) return;
        const { workerIndex, worker, taskIndex, task } = picked;
        const response = await call("POST", `/api/tasks/${task.id}/submissions`, worker.cookie, {
          submission_details: "race",
        });
        expect(response.statusCode).toBeOneOf([201, 409]);
        if (response.statusCode !== 201) return;
        task.slots -= 1;
        m.submissions.push({
          id: response.json<Submission>().id,
          task: taskIndex,
          worker: workerIndex,
          status: "pending",
          dueAt: 0,
        });
      },
    })),
    fc.record({ which: fc.nat(), approve: fc.boolean() }).map(({ which, approve }) => ({
      name: approve ? "approve" : "reject",
      async run(m: Model) {
        const submission = pick(m.submissions, which);
        const task = submission && m.tasks[submission.task];
        const buyer = task && m.buyers[task.buyer];
        const worker = submission && m.workers[submission.worker];
        if (!submission || !task || !buyer || !worker) return;
        const response = await call(
          "POST",
          `/api/submissions/${submission.id}/${approve ? "approve" : "reject"}`,
          buyer.cookie,
          approve ? undefined : { reason: "no" },
        );
        expect(response.statusCode).toBeOneOf([200, 409]);
        if (response.statusCode !== 200) return;
        submission.status = approve ? "approved" : "rejected";
        if (approve) worker.coins += task.pay;
        else task.slots += 1;
      },
    })),
    fc.record({ who: fc.nat(), coins: fc.integer({ min: 200, max: 260 }) }).map(({ who, coins }) => ({
      name: "withdraw",
      async run(m: Model) {
        const worker = pick(m.workers, who);
        if (!worker) return;
        const response = await call("POST", "/api/withdrawals", worker.cookie, {
          withdrawal_coin: coins,
          payment_system: "Nagad",
          account_number: "01512345678",
        });
        expect(response.statusCode).toBeOneOf([201, 409]);
        if (response.statusCode === 201) worker.coins -= coins;
      },
    })),
    fc
      .record({
        who: fc.nat(),
        workers: fc.integer({ min: 1, max: 3 }),
        pay: fc.integer({ min: 1, max: 30 }),
      })
      .map(({ who, workers: slots, pay }) => ({
        name: "post task",
        async run(m: Model) {
          const buyerIndex = who % m.buyers.length;
          const buyer = m.buyers[buyerIndex];
          if (!buyer) return;
          const response = await postTask(ctx.app, buyer.cookie, {
            required_workers: slots,
            payable_amount: pay,
            completion_date: day(20),
          });
          expect(response.statusCode).toBeOneOf([201, 409]);
          if (response.statusCode !== 201) return;
          buyer.coins -= slots * pay;
          m.tasks.push({
            id: response.json<Task>().id,
            buyer: buyerIndex,
            pay,
            slots,
            open: true,
            deleted: false,
            due: day(20),
          });
        },
      })),
  ];

  it("keeps every wallet equal to what the answers say, batch after batch", async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.oneof(...races), { minLength: 2, maxLength: 5 }), {
          minLength: 5,
          maxLength: 25,
        }),
        async (batches) => {
          clock.advanceDays(30);
          await autoApproveDue(ctx.db, clock.now());
          await expireTasks(ctx.db, clock.now());
          const model: Model = {
            buyers: await topUp(buyers, 200),
            workers: await topUp(workers, 300),
            tasks: [],
            submissions: [],
            withdrawals: [],
            submitted: new Set(),
            reservations: [],
          };
          for (const batch of batches) {
            await Promise.all(batch.map((race) => race.run(model)));
            steps += batch.length;
            for (const user of [...model.buyers, ...model.workers])
              expect(await balanceOf(ctx.db, walletOf(user.id))).toBe(user.coins);
            for (const task of model.tasks) {
              const real = (await call("GET", `/api/tasks/${task.id}`, admin)).json<Task>();
              expect(real.required_workers).toBe(task.slots);
            }
          }
          expect((await checkLedger(ctx.db)).problems).toEqual([]);
        },
      ),
      { numRuns: 15 * SOAK_SCALE },
    );
    console.info(`parallel-batch run: ${steps} actions`);
    expect(steps).toBeGreaterThan(300);
  }, 600_000);
});
