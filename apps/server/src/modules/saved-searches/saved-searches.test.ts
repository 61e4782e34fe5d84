import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_SAVED_SEARCHES, paths, type SavedSearch } from "@taskmint/shared";
import { jobs, notifications, savedSearches } from "../../db/schema/index.ts";
import {
  buyerWithKey,
  changeRole,
  marketplaceCalls,
  multipart,
  postTask,
  registerUser,
  signInAdmin,
  TestClock,
  testAppPerFile,
  type RegisteredUser,
} from "../../test/harness.ts";
import { mailCatcherPerFile } from "../../test/mail-catcher.ts";
import { PUSH_JOB } from "../push/service.ts";
import { TASKS_POSTED_JOB } from "../../core/tasks-posted.ts";
import { alertSavedSearches } from "./alerts.ts";

// Issue 36 points 3 and 4 (decision 037): saved searches, and the alerts posted tasks give them.

const clock = new TestClock();
const mail = mailCatcherPerFile();
// No worker of the app's own (JOB_POLL_MS=0): each test runs the job queue itself (decision 034).
const ctx = testAppPerFile(() => ({ env: { SMTP_URL: mail.url, JOB_POLL_MS: "0" }, clock }));
const { call, newTask, days, submit } = marketplaceCalls(() => ctx.app, clock);

const MINUTE = 60_000;
const SEARCHES = "/api/me/saved-searches";

async function save(worker: RegisteredUser, body: object = {}): Promise<SavedSearch> {
  const response = await call("POST", SEARCHES, worker.cookie, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<SavedSearch>();
}

const listOf = async (worker: RegisteredUser) => {
  const response = await call("GET", SEARCHES, worker.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: SavedSearch[] }>().items;
};

const searchCount = async (worker: RegisteredUser) =>
  (
    await ctx.db.select({ n: count() }).from(savedSearches).where(eq(savedSearches.workerId, worker.user.id))
  )[0]?.n;

/** The worker's saved-search alerts in the bell, newest first. */
const alertsOf = (worker: RegisteredUser) =>
  ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, worker.user.id), eq(notifications.kind, "saved_search_match")))
    .orderBy(sql`${notifications.createdAt} desc`);

const jobsOf = async (kind: string) => ctx.db.select().from(jobs).where(eq(jobs.kind, kind));

/** A task a worker would look for with "review" (one coin: a new buyer's 50 post many). */
const reviewTask = {
  task_title: "Review a product page",
  task_detail: "Read it and write what is unclear.",
  required_workers: 1,
  payable_amount: 1,
};
const otherTask = { ...reviewTask, task_title: "Label photos", task_detail: "Name what each photo shows." };

/** Runs every due job, the posted tasks' alerts among them. */
const runJobs = () => ctx.app.runJobs();

describe("saved searches", () => {
  it("saves a search with a name from its terms, lists newest first, renames, changes the alert and deletes", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const all = await save(worker);
    expect(all).toMatchObject({
      name: "All tasks",
      q: null,
      category: null,
      min_reward: null,
      alert: { bell: true, mail: false, push: false },
      new_matches: 0,
    });
    clock.advanceMs(1);
    const full = await save(worker, { q: "review", category: "data_entry", min_reward: 5 });
    expect(full.name).toBe("review in Data entry, at least 5 coins");
    clock.advanceMs(1);
    const least = await save(worker, { min_reward: 1, alert: { bell: false, mail: true, push: true } });
    expect(least.name).toBe("At least 1 coin");
    expect(least.alert).toEqual({ bell: false, mail: true, push: true });
    clock.advanceMs(1);
    const named = await save(worker, {
      name: "  Translations  ",
      q: "translate",
      category: "writing_reviews",
    });
    expect(named.name).toBe("Translations");
    expect((await listOf(worker)).map((search) => search.id)).toEqual([named.id, least.id, full.id, all.id]);

    const renamed = await call("PATCH", `${SEARCHES}/${full.id}`, worker.cookie, { name: "Reviews" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<SavedSearch>()).toMatchObject({ name: "Reviews", q: "review", min_reward: 5 });
    const alert = { bell: false, mail: true, push: false };
    const rechanneled = await call("PATCH", `${SEARCHES}/${full.id}`, worker.cookie, { alert });
    expect(rechanneled.json<SavedSearch>()).toMatchObject({ name: "Reviews", alert });

    expect((await call("DELETE", `${SEARCHES}/${all.id}`, worker.cookie)).statusCode).toBe(204);
    expect((await listOf(worker)).map((search) => search.id)).toEqual([named.id, least.id, full.id]);
    expect((await call("DELETE", `${SEARCHES}/${all.id}`, worker.cookie)).statusCode).toBe(404);
  });

  it(`keeps ${MAX_SAVED_SEARCHES} searches and refuses the next with 409 LIMIT_REACHED; a removed one frees its place`, async () => {
    const worker = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "worker");
    await save(other);
    const saved: SavedSearch[] = [];
    for (let n = 0; n < MAX_SAVED_SEARCHES; n += 1) saved.push(await save(worker, { q: `word${n}` }));
    const refused = await call("POST", SEARCHES, worker.cookie, { q: "one more" });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe("LIMIT_REACHED");
    expect(await searchCount(worker)).toBe(MAX_SAVED_SEARCHES);
    // Another worker's searches do not count against this one's.
    await save(other, { q: "still fine" });
    expect(await searchCount(other)).toBe(2);
    expect((await call("DELETE", `${SEARCHES}/${saved[0]!.id}`, worker.cookie)).statusCode).toBe(204);
    await save(worker, { q: "one more" });
    expect(await searchCount(worker)).toBe(MAX_SAVED_SEARCHES);
  });

  it(`never passes ${MAX_SAVED_SEARCHES} when ${MAX_SAVED_SEARCHES + 5} are saved at once`, async () => {
    const worker = await registerUser(ctx.app, "worker");
    const answers = await Promise.all(
      Array.from({ length: MAX_SAVED_SEARCHES + 5 }, (_, n) =>
        call("POST", SEARCHES, worker.cookie, { q: `race ${n}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_SAVED_SEARCHES);
    expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    expect(await searchCount(worker)).toBe(MAX_SAVED_SEARCHES);
  });

  it("refuses bad input with 400 and keeps nothing of it", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const kept = await save(worker, { q: "kept" });
    const bad: object[] = [
      { q: "nul\u0000byte" },
      { name: "nul\u0000byte" },
      { q: "x".repeat(201) },
      { name: "x".repeat(61) },
      { min_reward: 0 },
      { min_reward: 100_001 },
      { min_reward: 2.5 },
      { min_reward: "5" },
      { category: "gardening" },
      { unknown: true },
      { alert: { bell: true, mail: false } },
      { alert: { bell: true, mail: false, push: false, sms: true } },
    ];
    for (const body of bad) {
      const response = await call("POST", SEARCHES, worker.cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ error: { code: string } }>().error.code).toBe("VALIDATION");
    }
    // The limits themselves are accepted.
    await save(worker, { q: "x".repeat(200), name: "y".repeat(60), min_reward: 100_000 });
    await save(worker, { min_reward: 1 });
    for (const body of [{}, { name: "" }, { name: "a\u0000" }, { alert: { bell: true } }, { q: "words" }]) {
      const response = await call("PATCH", `${SEARCHES}/${kept.id}`, worker.cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call("PATCH", `${SEARCHES}/not-a-uuid`, worker.cookie, { name: "x" })).statusCode).toBe(
      400,
    );
    expect(await searchCount(worker)).toBe(3);
    // Search syntax the browsers accept is saved as they read it, and a posting's job matches it
    // as they would: a run of minus signs is one ("without review"), an open quote a phrase, a
    // stop word alone nothing, "-spam" every task without spam.
    const odd = await registerUser(ctx.app, "worker");
    const searches = [
      `${"-".repeat(100)}review`,
      '"unclosed review',
      "a & | ! ( ) <-> :*",
      "the",
      "-spam",
      "review -spam",
    ];
    for (const q of searches) await save(odd, { q });
    await newTask(await registerUser(ctx.app, "buyer"), reviewTask);
    expect(await runJobs()).toMatchObject({ failed: 0, retried: 0 });
    expect((await alertsOf(odd)).map((alert) => alert.message.split(":")[0]).sort()).toEqual([
      'New task matches "-spam"',
      'New task matches "review -spam"',
    ]);
    expect((await listOf(worker)).find((search) => search.id === kept.id)?.name).toBe("kept");
  });

  it("answers 404 for another worker's search and changes nothing; a buyer gets 403, a visitor 401", async () => {
    const owner = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "worker");
    const search = await save(owner, { q: "mine" });
    const url = `${SEARCHES}/${search.id}`;
    expect((await call("PATCH", url, other.cookie, { name: "taken" })).statusCode).toBe(404);
    expect((await call("POST", `${url}/seen`, other.cookie)).statusCode).toBe(404);
    expect((await call("DELETE", url, other.cookie)).statusCode).toBe(404);
    expect(await listOf(owner)).toEqual([search]);
    expect(await listOf(other)).toEqual([]);

    const buyer = await registerUser(ctx.app, "buyer");
    expect((await call("GET", SEARCHES, buyer.cookie)).statusCode).toBe(403);
    expect((await call("POST", SEARCHES, buyer.cookie, { q: "x" })).statusCode).toBe(403);
    expect((await call("DELETE", url, buyer.cookie)).statusCode).toBe(403);
    expect((await call("GET", SEARCHES)).statusCode).toBe(401);
    expect((await call("PATCH", url, undefined, { name: "x" })).statusCode).toBe(401);
    expect(await listOf(owner)).toEqual([search]);
  });

  it("counts new matches the worker can take since last seen, and starts again when seen", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const buyer = await registerUser(ctx.app, "buyer");
    const search = await save(worker, { q: "review" });
    clock.advanceMs(1);
    await newTask(buyer, reviewTask);
    await newTask(buyer, reviewTask);
    await newTask(buyer, otherTask);
    await newTask(buyer, { ...reviewTask, min_level: "silver" });
    expect((await listOf(worker))[0]?.new_matches).toBe(2);
    const seen = await call("POST", `${SEARCHES}/${search.id}/seen`, worker.cookie);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json<SavedSearch>()).toMatchObject({
      new_matches: 0,
      last_seen_at: clock.now().toISOString(),
    });
    clock.advanceMs(1);
    const later = await newTask(buyer, reviewTask);
    await newTask(buyer, reviewTask);
    expect((await listOf(worker))[0]?.new_matches).toBe(2);
    // A task the worker submitted to is no longer one they could take.
    expect((await submit(worker, later.id)).statusCode).toBe(201);
    expect((await listOf(worker))[0]?.new_matches).toBe(1);
    await runJobs();
  });
});

describe("alerts when tasks are posted", () => {
  it("gives one bell notification per matching search, none to a search that does not match", async () => {
    await runJobs();
    const worker = await registerUser(ctx.app, "worker");
    const bystander = await registerUser(ctx.app, "worker");
    const buyer = await registerUser(ctx.app, "buyer");
    await save(worker, { q: "reviews", name: "Reviews" });
    await save(worker, { q: "review", category: "other" });
    await save(worker, { q: "photo" });
    await save(bystander, { q: "translate" });
    const task = await newTask(buyer, { ...reviewTask, category: "other" });
    await runJobs();
    const alerts = await alertsOf(worker);
    expect(alerts).toHaveLength(2);
    expect(alerts.map((alert) => alert.message).sort()).toEqual([
      `New task matches "Reviews": ${reviewTask.task_title}`,
      `New task matches "review in Other": ${reviewTask.task_title}`,
    ]);
    expect(alerts.every((alert) => alert.actionRoute === paths.dashboard.taskDetails(task.id))).toBe(true);
    expect(await alertsOf(bystander)).toHaveLength(0);
    // Running the queue again alerts nobody twice.
    await runJobs();
    expect(await alertsOf(worker)).toHaveLength(2);
  });

  it("alerts nobody for a hidden buyer's or a blocking buyer's task, nor for one above the worker's level or rate", async () => {
    await runJobs();
    const hider = await registerUser(ctx.app, "worker");
    const blocked = await registerUser(ctx.app, "worker");
    const novice = await registerUser(ctx.app, "worker");
    const beside = await registerUser(ctx.app, "worker");
    const buyer = await registerUser(ctx.app, "buyer");
    for (const worker of [hider, blocked, novice, beside]) await save(worker, { q: "review" });
    expect(
      (await call("POST", "/api/worker/hidden-buyers", hider.cookie, { buyer_id: buyer.user.id })).statusCode,
    ).toBe(201);
    expect(
      (await call("POST", "/api/buyer/blocks", buyer.cookie, { worker_id: blocked.user.id })).statusCode,
    ).toBe(201);
    await newTask(buyer, reviewTask);
    await runJobs();
    expect(await alertsOf(hider)).toHaveLength(0);
    expect(await alertsOf(blocked)).toHaveLength(0);
    expect(await alertsOf(novice)).toHaveLength(1);
    expect(await alertsOf(beside)).toHaveLength(1);

    // Rule R21: one approved submission gives the worker beside a rate of 100%; the novice has none (0%).
    const another = await registerUser(ctx.app, "buyer");
    const warmUp = await newTask(another, otherTask);
    const submitted = await submit(beside, warmUp.id);
    expect(submitted.statusCode, submitted.body).toBe(201);
    const { id: submissionId } = submitted.json<{ id: string }>();
    expect((await call("POST", `/api/submissions/${submissionId}/approve`, another.cookie)).statusCode).toBe(
      200,
    );
    await newTask(another, { ...reviewTask, min_approval_rate: 100 });
    await newTask(another, { ...reviewTask, min_level: "bronze" });
    await runJobs();
    expect((await alertsOf(novice)).map((one) => one.message)).toEqual([
      `New task matches "review": ${reviewTask.task_title}`,
    ]);
    expect((await alertsOf(beside)).map((one) => one.message)).toEqual([`2 new tasks match "review"`]);
  });

  it("folds a batch of 50 matching tasks into one notification that opens the task list with the search", async () => {
    await runJobs();
    const worker = await registerUser(ctx.app, "worker");
    const search = await save(worker, { q: "label", category: "data_entry", min_reward: 2 });
    clock.advanceMs(1);
    const buyer = await buyerWithKey(ctx, 200);
    const header =
      "task_title,task_detail,submission_info,payable_amount,required_workers,completion_date,category";
    const rows = Array.from(
      { length: 50 },
      (_, n) => `Label photo ${n},Label what the photo shows,The label,2,1,${days(7)},data_entry`,
    );
    // One that does not reach the least reward, and one in another category.
    rows.push(`Label photo x,Label it,The label,1,1,${days(7)},data_entry`);
    rows.push(`Label photo y,Label it,The label,2,1,${days(7)},other`);
    const body = await multipart({
      file: { bytes: Buffer.from([header, ...rows].join("\n")), filename: "tasks.csv", type: "text/csv" },
    });
    const posted = await ctx.app.inject({
      method: "POST",
      url: "/api/buyer/batches",
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${buyer.key}` },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(await jobsOf(TASKS_POSTED_JOB)).toHaveLength(1);
    await runJobs();
    const alerts = await alertsOf(worker);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.message).toBe(`50 new tasks match "${search.name}"`);
    expect(alerts[0]?.actionRoute).toBe(
      `${paths.dashboard.taskList}?q=label&category=data_entry&min_reward=2`,
    );
    expect((await listOf(worker))[0]?.new_matches).toBe(50);
  });

  it("folds a match 30 minutes later into the same notification, unread again; 61 minutes later makes a new one", async () => {
    await runJobs();
    const worker = await registerUser(ctx.app, "worker");
    const beside = await registerUser(ctx.app, "worker");
    const buyer = await registerUser(ctx.app, "buyer");
    await save(worker, { q: "review" });
    await save(beside, { q: "review" });
    const first = await newTask(buyer, reviewTask);
    await runJobs();
    const [alert] = await alertsOf(worker);
    expect(alert?.message).toBe(`New task matches "review": ${reviewTask.task_title}`);
    expect(alert?.actionRoute).toBe(paths.dashboard.taskDetails(first.id));
    const read = await call("POST", "/api/notifications/read", worker.cookie, { ids: [alert!.id] });
    expect(read.statusCode, read.body).toBe(200);

    clock.advanceMs(30 * MINUTE);
    await newTask(buyer, reviewTask);
    await newTask(buyer, otherTask);
    await runJobs();
    const folded = await alertsOf(worker);
    expect(folded).toHaveLength(1);
    expect(folded[0]).toMatchObject({ id: alert!.id, message: `2 new tasks match "review"`, readAt: null });
    expect(folded[0]?.actionRoute).toBe(`${paths.dashboard.taskList}?q=review`);
    // The other worker's alert folded on its own.
    expect((await alertsOf(beside)).map((one) => one.message)).toEqual([`2 new tasks match "review"`]);

    // The window is 60 minutes from the first match: at 59 minutes it still folds ...
    clock.advanceMs(29 * MINUTE);
    await newTask(buyer, reviewTask);
    await runJobs();
    expect((await alertsOf(worker)).map((one) => one.message)).toEqual([`3 new tasks match "review"`]);
    // ... and at 61 minutes the next match starts a new notification.
    clock.advanceMs(2 * MINUTE);
    const late = await newTask(buyer, reviewTask);
    await runJobs();
    const after = await alertsOf(worker);
    expect(after).toHaveLength(2);
    expect(after.map((one) => one.message).sort()).toEqual([
      `3 new tasks match "review"`,
      `New task matches "review": ${reviewTask.task_title}`,
    ]);
    expect(after.find((one) => one.id !== alert!.id)?.actionRoute).toBe(paths.dashboard.taskDetails(late.id));
  });

  it("alerts nobody for a task no longer open when the job runs, nor for a posting that rolled back", async () => {
    await runJobs();
    const worker = await registerUser(ctx.app, "worker");
    await save(worker, { q: "review" });
    const buyer = await registerUser(ctx.app, "buyer");
    const task = await newTask(buyer, reviewTask);
    expect((await call("DELETE", `/api/tasks/${task.id}`, buyer.cookie)).statusCode).toBe(200);
    await runJobs();
    expect(await alertsOf(worker)).toHaveLength(0);

    // More than the buyer's coins: 409, no task, no job.
    const refused = await call("GET", "/api/me", buyer.cookie);
    const coins = refused.json<{ user: { coins: number } }>().user.coins;
    const tooDear = await postTask(ctx.app, buyer.cookie, {
      ...reviewTask,
      completion_date: days(7),
      required_workers: 1,
      payable_amount: coins + 1,
    });
    expect(tooDear.statusCode, tooDear.body).toBe(409);
    expect(await jobsOf(TASKS_POSTED_JOB)).toHaveLength(0);
    await runJobs();
    expect(await alertsOf(worker)).toHaveLength(0);
  });

  it("never alerts a worker of a task they posted themselves (a buyer made a worker)", async () => {
    await runJobs();
    const admin = await signInAdmin(ctx, "saved-searches-admin@example.com");
    const poster = await registerUser(ctx.app, "buyer");
    const task = await newTask(poster, reviewTask);
    expect((await changeRole(ctx.app, admin.cookie, poster.user.id, "worker")).statusCode).toBe(200);
    await save(poster, { q: "review" });
    const beside = await registerUser(ctx.app, "worker");
    await save(beside, { q: "review" });
    // The posting's job runs after both searches exist.
    await ctx.app.runJobs();
    expect(await alertsOf(poster)).toHaveLength(0);
    expect((await alertsOf(beside)).map((one) => one.actionRoute)).toEqual([
      paths.dashboard.taskDetails(task.id),
    ]);
  });

  it("mails one digest at the window's end when mail is on, and queues a push tagged with the search", async () => {
    await runJobs();
    const worker = await registerUser(ctx.app, "worker");
    const quiet = await registerUser(ctx.app, "worker");
    const buyer = await registerUser(ctx.app, "buyer");
    const search = await save(worker, { q: "review", alert: { bell: false, mail: true, push: true } });
    await save(quiet, { q: "review" });
    await newTask(buyer, reviewTask);
    await newTask(buyer, reviewTask);
    // The alerts run outside the queue, so the pushes they queue wait in the table to be read.
    const ids = (await jobsOf(TASKS_POSTED_JOB)).flatMap(
      (job) => (job.payload as { taskIds: string[] }).taskIds,
    );
    await ctx.db.delete(jobs).where(eq(jobs.kind, TASKS_POSTED_JOB));
    await alertSavedSearches(ctx.db, { taskIds: ids, now: clock.now() });
    const pushes = (await jobsOf(PUSH_JOB))
      .map((job) => job.payload as { userId: string })
      .filter((payload) => payload.userId === worker.user.id);
    expect(pushes).toEqual([
      {
        userId: worker.user.id,
        payload: {
          title: "review",
          body: `2 new tasks match "review"`,
          url: `${paths.dashboard.taskList}?q=review`,
          tag: `saved-search:${search.id}`,
        },
      },
    ]);
    // Bell off: no notification; the other worker has the bell only.
    expect(await alertsOf(worker)).toHaveLength(0);
    expect(await alertsOf(quiet)).toHaveLength(1);
    await runJobs();
    expect(mail.mailsTo(worker.email, "match")).toHaveLength(0);
    clock.advanceMs(30 * MINUTE);
    await newTask(buyer, reviewTask);
    await runJobs();
    clock.advanceMs(31 * MINUTE);
    await runJobs();
    const digest = await mail.waitFor(worker.email, "new tasks match");
    expect(digest.subject).toBe(`TaskMint: 3 new tasks match "review"`);
    expect(digest.text).toContain(`${paths.dashboard.taskList}?q=review`);
    expect(digest.text).toContain(paths.dashboard.savedSearches);
    expect(mail.mailsTo(worker.email, "match")).toHaveLength(1);
    expect(mail.mailsTo(quiet.email, "match")).toHaveLength(0);
  });
});
