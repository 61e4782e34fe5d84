import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Task } from "@taskmint/shared";
import { openDatabase, type Database } from "./db/client.ts";
import { isDatabaseUnavailable, rowsOf } from "./lib/db-errors.ts";
import { DEFAULT_STATEMENT_TIMEOUT_MS } from "./env.ts";
import { startJobs } from "./jobs/runner.ts";
import { walletOf } from "./modules/ledger/service.ts";
import { notify } from "./modules/notifications/service.ts";
import { openEventStream } from "./test/event-stream.ts";
import {
  multipart,
  postTask,
  registerUser,
  signIn,
  signInAdmin,
  startTestApp,
  TEST_ORIGIN,
  testImage,
  type TestContext,
} from "./test/harness.ts";
import { startTcpProxy, type TcpProxy } from "./test/tcp-proxy.ts";

// The app reaches PostgreSQL through a TCP proxy the test takes away and brings back, and a
// connection of the test's own ends every backend of the app, as a restart or failover does.

const postgresUrl = process.env.DATABASE_URL;
let proxy: TcpProxy;
let ctx: TestContext;
let base: string;
let direct: pg.Client;

beforeAll(async () => {
  if (!postgresUrl) return;
  proxy = await startTcpProxy(postgresUrl);
  ctx = await startTestApp({ databaseUrl: proxy.url });
  base = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  direct = new pg.Client({ connectionString: postgresUrl });
  await direct.connect();
});
afterAll(async () => {
  if (!postgresUrl) return;
  await ctx.close();
  await proxy.close();
  await direct.end();
});

/** Ends every connection to the app's database but this one; answers how many. */
async function terminateAppConnections(): Promise<number> {
  const ended = await direct.query(
    "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
  );
  return ended.rowCount ?? 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => Promise<boolean> | boolean, ms: number): Promise<number> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await sleep(50);
  }
  return performance.now() - started;
}

/** The answer, or what was still missing after `ms`: a request must not wait on the database for ever. */
async function within<T>(ms: number, answer: Promise<T>): Promise<{ value: T; ms: number } | "no answer"> {
  const started = performance.now();
  return Promise.race([
    answer.then((value) => ({ value, ms: performance.now() - started })),
    sleep(ms).then(() => "no answer" as const),
  ]);
}

function expectUnavailable(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, what).toBe(503);
  expect(response.headers["retry-after"], what).toBe("2");
  expect(response.json(), what).toMatchObject({ error: { code: "DATABASE_UNAVAILABLE" } });
}

describe.skipIf(!postgresUrl)(
  "a database that goes away (PostgreSQL only: PGlite runs inside the process and cannot lose its connection)",
  () => {
    it("answers 503 DATABASE_UNAVAILABLE with Retry-After while it is away, then serves again, jobs and live notifications included", async () => {
      const buyer = await registerUser(ctx.app, "buyer");
      const worker = await registerUser(ctx.app, "worker");
      const task = (
        await postTask(ctx.app, buyer.cookie, { required_workers: 2, payable_amount: 3 })
      ).json<Task>();
      const submitted = await ctx.app.inject({
        method: "POST",
        url: `/api/tasks/${task.id}/submissions`,
        headers: { cookie: worker.cookie },
        payload: { submission_details: "done" },
      });
      expect(submitted.statusCode).toBe(201);
      await direct.query(
        "update submissions set auto_approve_at = now() - interval '1 hour' where task_id = $1",
        [task.id],
      );
      const stream = await openEventStream(base, worker.cookie);

      proxy.takeAway({ dropOpen: false });
      // The pool's connections and the LISTEN connection, at least.
      expect(await terminateAppConnections()).toBeGreaterThan(1);
      const jobLines: { msg: string; approved?: number }[] = [];
      const jobLog = pino(
        { level: "info" },
        new Writable({
          write: (line: Buffer, _encoding, done) => {
            jobLines.push(JSON.parse(line.toString()) as { msg: string });
            done();
          },
        }),
      );
      const jobs = startJobs({
        db: ctx.db,
        log: jobLog,
        clock: () => new Date(),
        intervalMs: 200,
        onTasksChanged: () => ctx.app.publicTaskPages.changed(),
      });

      expect((await fetch(`${base}/healthz`)).status).toBe(503);
      const asBuyer = (method: "GET" | "POST", url: string, payload?: object) =>
        ctx.app.inject({
          method,
          url,
          headers: { cookie: buyer.cookie, origin: TEST_ORIGIN },
          ...(payload ? { payload } : {}),
        });
      expectUnavailable(await asBuyer("GET", "/api/me"), "the session reader");
      expectUnavailable(await asBuyer("GET", "/api/notifications"), "a read");
      expectUnavailable(await postTask(ctx.app, buyer.cookie), "a write");
      expectUnavailable(await signIn(ctx.app, buyer.email, buyer.password), "the auth library's sign-in");
      expectUnavailable(await asBuyer("POST", "/api/auth/sign-out", {}), "the auth library's sign-out");
      await waitFor(
        () => jobLines.filter((line) => line.msg.startsWith("background jobs failed")).length >= 2,
        5_000,
      );
      expect(stream.hasEnded()).toBe(false);

      await proxy.bringBack();
      const recoveryMs = await waitFor(async () => (await fetch(`${base}/healthz`)).status === 200, 5_000);
      // The sign-out answered 503 did not happen: the session still works.
      expect((await asBuyer("GET", "/api/me")).statusCode).toBe(200);
      // The jobs retried on a later tick and approved the due submission.
      await waitFor(
        () => jobLines.some((line) => line.msg === "background jobs ran" && line.approved === 1),
        5_000,
      );
      await jobs.stop();

      // The stream opened before the outage delivers again once the LISTEN connection is back.
      const sent: string[] = [];
      const liveMs = await waitFor(async () => {
        sent.push(`after the outage ${sent.length + 1}`);
        await notify(ctx.db, {
          userId: worker.user.id,
          message: sent.at(-1) ?? "",
          actionRoute: "/dashboard",
          kind: "other",
        });
        return stream.receives(sent.at(-1) ?? "", 500);
      }, 10_000);
      // Whatever was not pushed live is in the inbox a reload shows.
      const inbox = (
        await ctx.app.inject({
          method: "GET",
          url: "/api/notifications?limit=50",
          headers: { cookie: worker.cookie },
        })
      ).json<{ items: { message: string }[] }>();
      expect(inbox.items.map((item) => item.message).sort()).toEqual(
        [...sent, `You have earned 3 coins from ${buyer.user.name} for "${task.task_title}"`].sort(),
      );
      console.info(
        `database outage: /healthz 200 again ${Math.round(recoveryMs)} ms after the database came back; live notifications ${Math.round(liveMs)} ms later`,
      );
      stream.close();
    });

    it("ends, once its LISTEN connection is back, a stream whose session ended while it was down", async () => {
      const user = await registerUser(ctx.app, "worker");
      const someoneElse = await registerUser(ctx.app, "worker");
      const ending = await openEventStream(base, user.cookie);
      const staying = await openEventStream(base, someoneElse.cookie);

      proxy.takeAway({ dropOpen: false });
      const listening = await direct.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN %'",
      );
      // The notification hub's and the job worker's (decision 034).
      expect(listening.rowCount).toBe(2);
      // Signed out elsewhere (another server process) while this one hears nothing.
      await direct.query("delete from sessions where user_id = $1", [user.user.id]);
      await sleep(300);
      expect(ending.hasEnded()).toBe(false);

      await proxy.bringBack();
      await waitFor(() => ending.hasEnded(), 10_000);
      expect(staying.hasEnded()).toBe(false);
      staying.close();
    });

    it("keeps every acknowledged write when every backend of the app is terminated three times under load, answering nothing 5xx but 503", async () => {
      const buyer = await registerUser(ctx.app, "buyer");
      const photo = await testImage();
      const statuses: { status: number; code?: string; retryAfter?: string }[] = [];
      const record = (response: LightMyRequestResponse) => {
        const body = response.statusCode >= 500 ? response.json<{ error?: { code?: string } }>() : undefined;
        statuses.push({
          status: response.statusCode,
          code: body?.error?.code,
          retryAfter: response.headers["retry-after"],
        });
        return response;
      };
      const acknowledged = { tasks: [] as string[], users: [] as string[] };
      let running = true;
      const loop = async (step: () => Promise<void>) => {
        while (running) await step();
      };
      const loops = [
        loop(async () => {
          const response = record(
            await postTask(ctx.app, buyer.cookie, { required_workers: 1, payable_amount: 1 }),
          );
          if (response.statusCode === 201) acknowledged.tasks.push(response.json<Task>().id);
        }),
        loop(async () => {
          const email = `outage-${statuses.length}-${Date.now()}@example.com`;
          const form = await multipart({
            name: "Outage Worker",
            role: "worker",
            email,
            password: "Secret12",
            photo: { bytes: photo, filename: "me.png", type: "image/png" },
          });
          const response = record(await ctx.app.inject({ method: "POST", url: "/api/register", ...form }));
          if (response.statusCode === 201) acknowledged.users.push(email);
        }),
        loop(async () => {
          record(await signIn(ctx.app, buyer.email, buyer.password));
        }),
        loop(async () => {
          record(await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: buyer.cookie } }));
          const latest = acknowledged.tasks.at(-1);
          if (latest) record(await ctx.app.inject({ method: "GET", url: `/api/tasks/${latest}` }));
        }),
      ];
      let terminated = 0;
      for (let round = 0; round < 3; round += 1) {
        await sleep(800);
        terminated += await terminateAppConnections();
      }
      await sleep(800);
      running = false;
      await Promise.all(loops);

      const failures = statuses.filter((entry) => entry.status >= 500);
      expect(
        failures.filter(
          (entry) =>
            entry.status !== 503 || entry.code !== "DATABASE_UNAVAILABLE" || entry.retryAfter !== "2",
        ),
      ).toEqual([]);
      expect(acknowledged.tasks.length).toBeGreaterThan(3);
      const kept = await direct.query<{ kept: number }>(
        "select count(*)::int as kept from tasks where id = any($1)",
        [acknowledged.tasks],
      );
      expect(kept.rows[0]?.kept).toBe(acknowledged.tasks.length);
      const registered = await direct.query<{ kept: number }>(
        "select count(*)::int as kept from users where email = any($1)",
        [acknowledged.users],
      );
      expect(registered.rows[0]?.kept).toBe(acknowledged.users.length);
      console.info(
        `database terminations under load: ${statuses.length} requests, ${terminated} connections ended in 3 rounds, ${failures.length} answered 503, ${acknowledged.tasks.length} tasks and ${acknowledged.users.length} sign-ups acknowledged and kept`,
      );
    });

    it("answers 503 within seconds when the network to the database goes silent, and serves again when it answers (issue 31)", async () => {
      const user = await registerUser(ctx.app, "buyer");
      const asUser = () =>
        ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: user.cookie } });
      const stream = await openEventStream(base, user.cookie);
      // Connections in the pool, idle, for the requests below to take.
      for (const response of await Promise.all(Array.from({ length: 4 }, asUser)))
        expect(response.statusCode).toBe(200);

      // A transaction under way when the network goes silent: its next statement gets no answer.
      let began!: () => void;
      let silenced!: () => void;
      const underWay = new Promise<void>((resolve) => (began = resolve));
      const silence = new Promise<void>((resolve) => (silenced = resolve));
      const transaction = within(
        10_000,
        ctx.db
          .transaction(async (tx) => {
            await tx.execute(sql`select 1`);
            began();
            await silence;
            await tx.execute(sql`select 2`);
          })
          .catch((error: unknown) => error),
      );
      await underWay;
      proxy.goSilent();
      silenced();
      // Writes whose transaction's BEGIN gets no answer, then more requests than the pool's 10
      // connections: reads on idle connections, on new ones, and waiting for one; the health check.
      const writes = Array.from({ length: 2 }, () => within(10_000, postTask(ctx.app, user.cookie)));
      await sleep(500);
      const reads = Array.from({ length: 12 }, () => within(10_000, asUser()));
      const health = within(
        10_000,
        fetch(`${base}/healthz`).then((response) => response.status),
      );
      const waits: number[] = [];
      for (const [index, answer] of (await Promise.all([...writes, ...reads])).entries()) {
        if (answer === "no answer") throw new Error(`request ${index} got no answer within 10 s`);
        expectUnavailable(answer.value, `request ${index}`);
        waits.push(answer.ms);
      }
      const healthAnswer = await health;
      if (healthAnswer === "no answer") throw new Error("/healthz got no answer within 10 s");
      expect(healthAnswer.value).toBe(503);
      const transactionAnswer = await transaction;
      if (transactionAnswer === "no answer") throw new Error("the transaction got no answer within 10 s");
      expect(isDatabaseUnavailable(transactionAnswer.value)).toBe(true);
      waits.push(healthAnswer.ms, transactionAnswer.ms);

      await proxy.bringBack();
      const recoveryMs = await waitFor(async () => (await fetch(`${base}/healthz`)).status === 200, 10_000);
      expect((await asUser()).statusCode).toBe(200);
      expect((await postTask(ctx.app, user.cookie)).statusCode).toBe(201);
      // No connection that went unanswered came back to the pool, and none is held for ever: all
      // ten connections at once answer at once.
      const pool = ctx.handle.driver.kind === "postgres" ? ctx.handle.driver.pool : null;
      const allAtOnce = await within(
        3_000,
        Promise.all(Array.from({ length: 10 }, () => ctx.db.execute(sql`select pg_sleep(0.2)`))),
      );
      expect(allAtOnce).not.toBe("no answer");
      expect(pool?.totalCount).toBe(10);
      expect(pool?.idleCount).toBe(10);
      // The LISTEN connection, silent meanwhile too, delivers again.
      await notify(ctx.db, {
        userId: user.user.id,
        message: "after the silence",
        actionRoute: "/dashboard",
        kind: "other",
      });
      expect(await stream.receives("after the silence", 5_000)).toBe(true);
      console.info(
        `silent database: 15 requests and a transaction answered 503 (failed) within ${Math.round(Math.max(...waits))} ms; /healthz 200 again ${Math.round(recoveryMs)} ms after it answered`,
      );
      stream.close();
    });

    it(`cancels a statement past ${DEFAULT_STATEMENT_TIMEOUT_MS} ms (503), and not one that waits less (issue 31)`, async () => {
      const buyer = await registerUser(ctx.app, "buyer");
      // Posting a task moves coins from the buyer's wallet: a lock held on it makes the request wait.
      const holdWallet = async () => {
        await direct.query("begin");
        await direct.query("select 1 from ledger_accounts where owner_key = $1 for update", [
          walletOf(buyer.user.id),
        ]);
        return () => direct.query("rollback");
      };
      const post = () => within(10_000, postTask(ctx.app, buyer.cookie, { required_workers: 1 }));

      const shortly = await holdWallet();
      setTimeout(() => void shortly(), 1_000);
      const waited = await post();
      if (waited === "no answer") throw new Error("no answer within 10 s");
      expect(waited.value.statusCode).toBe(201);
      expect(waited.ms).toBeGreaterThanOrEqual(900);

      const release = await holdWallet();
      const cancelled = await post();
      await release();
      if (cancelled === "no answer") throw new Error("no answer within 10 s");
      expectUnavailable(cancelled.value, "a statement waiting past the timeout");
      expect(cancelled.ms).toBeGreaterThanOrEqual(DEFAULT_STATEMENT_TIMEOUT_MS);
      expect(cancelled.ms).toBeLessThan(DEFAULT_STATEMENT_TIMEOUT_MS + 1_000);
      expect((await postTask(ctx.app, buyer.cookie, { required_workers: 1 })).statusCode).toBe(201);
    });

    it("does not cut work that is long by design: the ledger check, the jobs, the scripts (issue 31)", async () => {
      const { cookie } = await signInAdmin(ctx, "admin-outage@example.com", { twoFactor: false });
      // The ledger check reads every transfer: held up past the requests' statement timeout, it still answers.
      await direct.query("begin");
      await direct.query("lock table ledger_transfers in access exclusive mode");
      const heldMs = DEFAULT_STATEMENT_TIMEOUT_MS + 1_500;
      const released = sleep(heldMs).then(() => direct.query("rollback"));
      const started = performance.now();
      const check = await ctx.app.inject({
        method: "GET",
        url: "/api/admin/ledger/check",
        headers: { cookie },
      });
      await released;
      expect(check.statusCode, check.body).toBe(200);
      expect(check.json()).toMatchObject({ ok: true });
      expect(performance.now() - started).toBeGreaterThanOrEqual(heldMs - 100);

      const timeoutsOf = async (statementTimeoutMs?: number) => {
        const handle = await openDatabase({ databaseUrl: postgresUrl, dataDir: null, statementTimeoutMs });
        const show = async (db: Database) =>
          rowsOf<{ statement_timeout: string }>(await db.execute(sql`show statement_timeout`))[0]
            ?.statement_timeout;
        try {
          return { requests: await show(handle.db), longWork: await show(handle.unhurried) };
        } finally {
          await handle.close();
        }
      };
      // The server's (the background jobs run on the long work's connections).
      expect(await timeoutsOf()).toEqual({
        requests: `${DEFAULT_STATEMENT_TIMEOUT_MS / 1000}s`,
        longWork: "5min",
      });
      // The scripts' (seeding, `npm run ledger:check`).
      expect(await timeoutsOf(0)).toEqual({ requests: "0", longWork: "0" });
    });
  },
);
