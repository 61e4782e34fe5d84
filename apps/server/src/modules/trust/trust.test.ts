import { describe, expect, it } from "vitest";
import type {
  BlockedWorker,
  HiddenBuyer,
  LargePage,
  Page,
  Submission,
  Task,
  TaskSearchPage,
} from "@taskmint/shared";
import { marketplaceTestFile, postTask, type RegisteredUser, registerUser } from "../../test/harness.ts";
import { MINT, transfer, walletOf } from "../ledger/service.ts";
import { refreshBuyerReputations } from "./service.ts";

const { clock, ctx, call, newTask, submit } = marketplaceTestFile();

const codeOf = (response: { json: <T>() => T }) =>
  response.json<{ error: { code: string; message: string } }>().error;
const workerList = async (worker: RegisteredUser, query = "") =>
  (await call("GET", `/api/worker/tasks?limit=100${query}`, worker.cookie)).json<LargePage<Task>>();
const listedIds = async (worker: RegisteredUser) => (await workerList(worker)).items.map((task) => task.id);
const reserve = (worker: RegisteredUser, taskId: string) =>
  call("POST", `/api/tasks/${taskId}/reservations`, worker.cookie);

let funds = 0;
/** Gives the buyer coins through the ledger, for tests that post many tasks. */
async function fund(buyer: RegisteredUser, amount: number) {
  funds += 1;
  await transfer(ctx.db, {
    from: MINT,
    to: walletOf(buyer.user.id),
    amount,
    idempotencyKey: `trust-test:${funds}`,
  });
}

/** A worker whose decided submissions are `approved` approvals and `rejected` rejections, by one buyer. */
async function workerWithRecord(approved: number, rejected: number) {
  const buyer = await registerUser(ctx.app, "buyer");
  await fund(buyer, approved + rejected);
  const worker = await registerUser(ctx.app, "worker");
  for (let n = 0; n < approved + rejected; n += 1) {
    const task = await newTask(buyer, { required_workers: 1, payable_amount: 1 });
    const submission = (await submit(worker, task.id)).json<Submission>();
    const decision = n < approved ? "approve" : "reject";
    const decided = await call(
      "POST",
      `/api/submissions/${submission.id}/${decision}`,
      buyer.cookie,
      decision === "reject" ? { reason: "no" } : undefined,
    );
    expect(decided.statusCode, decided.body).toBe(200);
  }
  return worker;
}

describe("qualifications (rule R21)", () => {
  it("keeps a task that asks for a level from workers below it: not listed, reserve and submit 403 NOT_QUALIFIED", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const silver = await newTask(buyer, { min_level: "silver" });
    const open = await newTask(buyer);
    expect(silver).toMatchObject({ min_level: "silver", min_approval_rate: 0 });
    const worker = await registerUser(ctx.app, "worker");
    const ids = await listedIds(worker);
    expect(ids).toContain(open.id);
    expect(ids).not.toContain(silver.id);
    for (const response of [await reserve(worker, silver.id), await submit(worker, silver.id)]) {
      expect(response.statusCode, response.body).toBe(403);
      expect(codeOf(response)).toEqual({
        code: "NOT_QUALIFIED",
        message: "This task requires Silver level or higher; you are New",
      });
    }
    // The public list still shows it, with what it requires.
    const publicPage = (await call("GET", "/api/tasks?limit=100")).json<TaskSearchPage>();
    expect(publicPage.items.find((task) => task.id === silver.id)?.min_level).toBe("silver");
    const untouched = (await call("GET", `/api/tasks/${silver.id}`, worker.cookie)).json<Task>();
    expect(untouched.required_workers).toBe(2);
  });

  it("lets a worker meet a least approval rate exactly, and not below it; none yet meets only 0", async () => {
    const worker = await workerWithRecord(3, 1); // 75%
    const buyer = await registerUser(ctx.app, "buyer");
    const [at75, at76] = [
      await newTask(buyer, { min_approval_rate: 75 }),
      await newTask(buyer, { min_approval_rate: 76 }),
    ];
    const ids = await listedIds(worker);
    expect(ids).toContain(at75.id);
    expect(ids).not.toContain(at76.id);
    expect((await reserve(worker, at76.id)).statusCode).toBe(403);
    const reserved = await reserve(worker, at75.id);
    expect(reserved.statusCode, reserved.body).toBe(201);
    expect((await submit(worker, at75.id)).statusCode).toBe(201);

    const newcomer = await registerUser(ctx.app, "worker");
    const low = await newTask(buyer, { min_approval_rate: 1 });
    expect(await listedIds(newcomer)).not.toContain(low.id);
    const refused = await submit(newcomer, low.id);
    expect(codeOf(refused)).toEqual({
      code: "NOT_QUALIFIED",
      message: "This task requires an approval rate of 1% or more; you have none yet",
    });
  });

  it("grants Bronze at 10 decided with 80%: the task asking for Bronze opens", async () => {
    const worker = await workerWithRecord(8, 2);
    const reputation = (
      await call("GET", `/api/workers/${worker.user.id}/reputation`, worker.cookie)
    ).json<unknown>();
    expect(reputation).toEqual({ approval_rate: 80, decided: 10, level: "bronze" });
    const buyer = await registerUser(ctx.app, "buyer");
    const bronze = await newTask(buyer, { min_level: "bronze" });
    const silver = await newTask(buyer, { min_level: "silver" });
    const ids = await listedIds(worker);
    expect(ids).toContain(bronze.id);
    expect(ids).not.toContain(silver.id);
    expect((await submit(worker, bronze.id)).statusCode).toBe(201);
  });

  it("refuses bad requirements with 400 and posts nothing", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    for (const input of [
      { min_approval_rate: 101 },
      { min_approval_rate: -1 },
      { min_approval_rate: 2.5 },
      { min_level: "platinum" },
    ]) {
      const response = await postTask(ctx.app, buyer.cookie, input);
      expect(response.statusCode, JSON.stringify(input)).toBe(400);
    }
    expect((await call("GET", "/api/buyer/tasks", buyer.cookie)).json<Page<Task>>().total).toBe(0);
  });
});

describe("blocks and hidden buyers (rule R23)", () => {
  it("a blocked worker cannot see, reserve or submit to the buyer's tasks; pending work stays reviewable; unblocking restores it", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker");
    const first = await newTask(buyer);
    const second = await newTask(buyer);
    const pending = (await submit(worker, first.id)).json<Submission>();
    const blocked = await call("POST", "/api/buyer/blocks", buyer.cookie, {
      worker_id: worker.user.id,
      note: "Copied another worker's proof",
    });
    expect(blocked.statusCode, blocked.body).toBe(201);
    expect(blocked.json<BlockedWorker>()).toMatchObject({
      worker_id: worker.user.id,
      worker_name: worker.user.name,
      note: "Copied another worker's proof",
    });
    expect(await listedIds(worker)).not.toContain(second.id);
    for (const response of [await reserve(worker, second.id), await submit(worker, second.id)]) {
      expect(response.statusCode).toBe(403);
      expect(codeOf(response).code).toBe("NOT_QUALIFIED");
    }
    // Other workers are not affected.
    expect(await listedIds(await registerUser(ctx.app, "worker"))).toContain(second.id);
    const approved = await call("POST", `/api/submissions/${pending.id}/approve`, buyer.cookie);
    expect(approved.statusCode, approved.body).toBe(200);

    const list = (await call("GET", "/api/buyer/blocks", buyer.cookie)).json<Page<BlockedWorker>>();
    expect(list.total).toBe(1);
    const unblocked = await call("DELETE", `/api/buyer/blocks/${worker.user.id}`, buyer.cookie);
    expect(unblocked.statusCode).toBe(200);
    expect((await call("DELETE", `/api/buyer/blocks/${worker.user.id}`, buyer.cookie)).statusCode).toBe(404);
    expect(await listedIds(worker)).toContain(second.id);
    expect((await submit(worker, second.id)).statusCode).toBe(201);
  });

  it("blocks only workers, keeps one block per pair (the note replaced), and pages the list", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const otherBuyer = await registerUser(ctx.app, "buyer");
    expect(
      (await call("POST", "/api/buyer/blocks", buyer.cookie, { worker_id: otherBuyer.user.id })).statusCode,
    ).toBe(404);
    expect((await call("POST", "/api/buyer/blocks", buyer.cookie, { worker_id: "nope" })).statusCode).toBe(
      400,
    );
    const note = "x".repeat(501);
    const worker = await registerUser(ctx.app, "worker");
    expect(
      (await call("POST", "/api/buyer/blocks", buyer.cookie, { worker_id: worker.user.id, note })).statusCode,
    ).toBe(400);
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) {
      const blocked = n === 0 ? worker : await registerUser(ctx.app, "worker");
      ids.push(blocked.user.id);
      clock.advanceMs(1_000);
      expect(
        (await call("POST", "/api/buyer/blocks", buyer.cookie, { worker_id: blocked.user.id })).statusCode,
      ).toBe(201);
    }
    const again = await call("POST", "/api/buyer/blocks", buyer.cookie, {
      worker_id: worker.user.id,
      note: "Second note",
    });
    expect(again.json<BlockedWorker>().note).toBe("Second note");
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const listed = (await call("GET", `/api/buyer/blocks?limit=2&page=${page}`, buyer.cookie)).json<
        Page<BlockedWorker>
      >();
      expect(listed.total).toBe(5);
      expect(listed.items.length).toBe(page < 3 ? 2 : 1);
      seen.push(...listed.items.map((item) => item.worker_id));
    }
    expect(seen).toEqual([...ids].reverse());
    // Another buyer's list is their own.
    expect(
      (await call("GET", "/api/buyer/blocks", otherBuyer.cookie)).json<Page<BlockedWorker>>().total,
    ).toBe(0);
  });

  it("a worker hides a buyer's tasks from their list, and brings them back", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const task = await newTask(buyer);
    const worker = await registerUser(ctx.app, "worker");
    const hidden = await call("POST", "/api/worker/hidden-buyers", worker.cookie, {
      buyer_id: buyer.user.id,
    });
    expect(hidden.statusCode, hidden.body).toBe(201);
    expect(hidden.json<HiddenBuyer>()).toMatchObject({
      buyer_id: buyer.user.id,
      buyer_name: buyer.user.name,
    });
    expect(
      (await call("POST", "/api/worker/hidden-buyers", worker.cookie, { buyer_id: buyer.user.id }))
        .statusCode,
    ).toBe(201);
    expect(await listedIds(worker)).not.toContain(task.id);
    const listed = (await call("GET", "/api/worker/hidden-buyers", worker.cookie)).json<Page<HiddenBuyer>>();
    expect(listed.total).toBe(1);
    expect(
      (await call("POST", "/api/worker/hidden-buyers", worker.cookie, { buyer_id: worker.user.id }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call("DELETE", `/api/worker/hidden-buyers/${buyer.user.id}`, worker.cookie)).statusCode,
    ).toBe(200);
    expect(await listedIds(worker)).toContain(task.id);
  });
});

describe("lifting a block or a hide touches only that pair (rule R23)", () => {
  it("unblocking removes this buyer's block of this worker only; another buyer cannot lift it", async () => {
    const [buyer, otherBuyer, stranger] = [
      await registerUser(ctx.app, "buyer"),
      await registerUser(ctx.app, "buyer"),
      await registerUser(ctx.app, "buyer"),
    ];
    const [worker, otherWorker] = [
      await registerUser(ctx.app, "worker"),
      await registerUser(ctx.app, "worker"),
    ];
    for (const [by, of] of [
      [buyer, worker],
      [buyer, otherWorker],
      [otherBuyer, worker],
    ] as const)
      expect((await call("POST", "/api/buyer/blocks", by.cookie, { worker_id: of.user.id })).statusCode).toBe(
        201,
      );
    expect((await call("DELETE", `/api/buyer/blocks/${worker.user.id}`, stranger.cookie)).statusCode).toBe(
      404,
    );
    expect((await call("DELETE", `/api/buyer/blocks/${worker.user.id}`, buyer.cookie)).statusCode).toBe(200);
    const blocked = async (by: RegisteredUser) =>
      (await call("GET", "/api/buyer/blocks", by.cookie))
        .json<Page<BlockedWorker>>()
        .items.map((item) => item.worker_id);
    expect(await blocked(buyer)).toEqual([otherWorker.user.id]);
    expect(await blocked(otherBuyer)).toEqual([worker.user.id]);
    const refused = await submit(worker, (await newTask(otherBuyer)).id);
    expect([refused.statusCode, codeOf(refused).code]).toEqual([403, "NOT_QUALIFIED"]);
    expect((await submit(worker, (await newTask(buyer)).id)).statusCode).toBe(201);
  });

  it("unhiding brings back this worker's view of this buyer only", async () => {
    const [buyer, otherBuyer] = [await registerUser(ctx.app, "buyer"), await registerUser(ctx.app, "buyer")];
    const [worker, otherWorker] = [
      await registerUser(ctx.app, "worker"),
      await registerUser(ctx.app, "worker"),
    ];
    const [task, otherTask] = [await newTask(buyer), await newTask(otherBuyer)];
    for (const [by, of] of [
      [worker, buyer],
      [worker, otherBuyer],
      [otherWorker, buyer],
    ] as const)
      expect(
        (await call("POST", "/api/worker/hidden-buyers", by.cookie, { buyer_id: of.user.id })).statusCode,
      ).toBe(201);
    expect(
      (await call("DELETE", `/api/worker/hidden-buyers/${buyer.user.id}`, worker.cookie)).statusCode,
    ).toBe(200);
    const shown = await listedIds(worker);
    expect([shown.includes(task.id), shown.includes(otherTask.id)]).toEqual([true, false]);
    expect(await listedIds(otherWorker)).not.toContain(task.id);
    const hidden = (await call("GET", "/api/worker/hidden-buyers", otherWorker.cookie)).json<
      Page<HiddenBuyer>
    >();
    expect(hidden.items.map((item) => item.buyer_id)).toEqual([buyer.user.id]);
  });
});

describe("buyer reputation (rule R21)", () => {
  it("shows each buyer's approval rate and median review time over the last 90 days on their tasks", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    await fund(buyer, 10);
    const fresh = await newTask(buyer);
    expect(fresh.buyer_reputation).toEqual({ approval_rate: null, median_review_hours: null, decided: 0 });
    const hoursToReview = [2, 4, 10];
    for (const [n, hours] of hoursToReview.entries()) {
      const task = await newTask(buyer, { required_workers: 1, payable_amount: 1 });
      const worker = await registerUser(ctx.app, "worker");
      const submission = (await submit(worker, task.id)).json<Submission>();
      clock.advanceMs(hours * 3_600_000);
      const decision = n === 0 ? "reject" : "approve";
      await call(
        "POST",
        `/api/submissions/${submission.id}/${decision}`,
        buyer.cookie,
        n === 0 ? { reason: "no" } : undefined,
      );
    }
    expect(await refreshBuyerReputations(ctx.db, clock.now())).toBeGreaterThanOrEqual(1);
    const shown = (await call("GET", `/api/tasks/${fresh.id}`)).json<Task>();
    expect(shown.buyer_reputation).toEqual({ approval_rate: 66, median_review_hours: 4, decided: 3 });
    // Ninety days on, those decisions leave the window.
    clock.advanceDays(91);
    await refreshBuyerReputations(ctx.db, clock.now());
    const later = (await call("GET", `/api/tasks/${fresh.id}`)).json<Task>();
    expect(later.buyer_reputation).toEqual({ approval_rate: null, median_review_hours: null, decided: 0 });
  });

  it("counts a decision made just inside the 90 days, and not one just outside", async () => {
    const decideOne = async (buyer: RegisteredUser) => {
      const task = await newTask(buyer, { required_workers: 1, payable_amount: 1 });
      const submission = (await submit(await registerUser(ctx.app, "worker"), task.id)).json<Submission>();
      expect((await call("POST", `/api/submissions/${submission.id}/approve`, buyer.cookie)).statusCode).toBe(
        200,
      );
    };
    const [older, newer] = [await registerUser(ctx.app, "buyer"), await registerUser(ctx.app, "buyer")];
    const shownOf = async (buyer: RegisteredUser) =>
      (await newTask(buyer, { required_workers: 1, payable_amount: 1 })).id;
    const [olderTask, newerTask] = [await shownOf(older), await shownOf(newer)];
    const reputationOn = async (taskId: string) =>
      (await call("GET", `/api/tasks/${taskId}`)).json<Task>().buyer_reputation;
    await decideOne(older);
    clock.advanceMs(2 * 60_000);
    await decideOne(newer);
    await refreshBuyerReputations(ctx.db, clock.now());
    const one = { approval_rate: 100, median_review_hours: 0, decided: 1 };
    expect([await reputationOn(olderTask), await reputationOn(newerTask)]).toEqual([one, one]);
    // 90 days and a minute after the older decision: 90 days less a minute after the newer one.
    clock.advanceDays(90);
    clock.advanceMs(-60_000);
    await refreshBuyerReputations(ctx.db, clock.now());
    expect([await reputationOn(olderTask), await reputationOn(newerTask)]).toEqual([
      { approval_rate: null, median_review_hours: null, decided: 0 },
      one,
    ]);
  });
});
