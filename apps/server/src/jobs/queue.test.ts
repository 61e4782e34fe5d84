import { count, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../db/schema/index.ts";
import { JOB_LEASE_MS } from "../lib/job-queue.ts";
import { queueMail } from "../lib/mailer.ts";
import { registerUser, startTestApp, TestClock, type TestContext } from "../test/harness.ts";
import { mailCatcherPerFile } from "../test/mail-catcher.ts";

// Issue 35, point 3 (decision 034): the durable job queue, with mail on it. The apps here run no
// worker of their own (JOB_POLL_MS=0): each test runs the due jobs itself, so every count is exact.

const clock = new TestClock();
const mail = mailCatcherPerFile();
const servers = {} as { one: TestContext; two: TestContext };
const options = () => ({ env: { SMTP_URL: mail.url, JOB_POLL_MS: "0" }, clock });

beforeAll(async () => {
  servers.one = await startTestApp(options());
  servers.two = await startTestApp({ ...options(), joining: servers.one.handle });
});
afterAll(async () => {
  await servers.two.close();
  await servers.one.close();
});

const pendingJobs = async () =>
  (await servers.one.db.select({ n: count() }).from(jobs).where(isNull(jobs.failedAt)))[0]!.n;
const runBoth = () => Promise.all([servers.one.app.runJobs(), servers.two.app.runJobs()]);
const letter = (to: string, subject: string) => ({ to, subject, text: `About ${subject}` });

describe("the job queue", () => {
  it("keeps a mail through an SMTP outage and sends it once the server answers again", async () => {
    mail.refuse("451 try again later");
    const worker = await registerUser(servers.one.app, "worker", { unverified: true });
    const subject = "Confirm your TaskMint email address";
    expect(await servers.one.app.runJobs()).toEqual({ done: 0, retried: 1, failed: 0 });
    expect(mail.mailsTo(worker.email, subject)).toHaveLength(0);
    mail.refuse(null);
    // Backing off: not again before its wait is over.
    clock.advanceMs(59_000);
    expect(await servers.one.app.runJobs()).toEqual({ done: 0, retried: 0, failed: 0 });
    clock.advanceMs(1_000);
    expect(await servers.two.app.runJobs()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(mail.mailsTo(worker.email, subject)).toHaveLength(1);
    expect(await servers.one.app.runJobs()).toEqual({ done: 0, retried: 0, failed: 0 });
    expect(mail.mailsTo(worker.email, subject)).toHaveLength(1);
  });

  it("gives a mail up after its last retry, keeping the row and its error", async () => {
    mail.refuse("451 down for good");
    await queueMail(servers.one.db, letter("gone@example.com", "never sent"), clock.now());
    const waits = [1, 5, 30, 120, 120];
    expect(await servers.one.app.runJobs()).toEqual({ done: 0, retried: 1, failed: 0 });
    for (const minutes of waits.slice(0, -1)) {
      clock.advanceMs(minutes * 60_000);
      expect(await servers.one.app.runJobs()).toEqual({ done: 0, retried: 1, failed: 0 });
    }
    clock.advanceMs(120 * 60_000);
    expect(await servers.one.app.runJobs()).toEqual({ done: 0, retried: 0, failed: 1 });
    mail.refuse(null);
    clock.advanceDays(1);
    expect(await servers.one.app.runJobs()).toEqual({ done: 0, retried: 0, failed: 0 });
    const [failed] = await servers.one.db.select().from(jobs).where(eq(jobs.kind, "mail"));
    expect(failed?.failedAt).not.toBeNull();
    expect(failed?.attempts).toBe(waits.length + 1);
    expect(failed?.lastError).toContain("down for good");
    expect(mail.mailsTo("gone@example.com")).toHaveLength(0);
    await servers.one.db.delete(jobs);
  });

  it("queues nothing for a change that rolls back, and the job of one that commits", async () => {
    const before = await pendingJobs();
    await expect(
      servers.one.db.transaction(async (tx) => {
        await queueMail(tx, letter("rolled@example.com", "rolled back"), clock.now());
        throw new Error("the change fails");
      }),
    ).rejects.toThrow("the change fails");
    expect(await pendingJobs()).toBe(before);
    await servers.one.db.transaction((tx) =>
      queueMail(tx, letter("kept@example.com", "committed"), clock.now()),
    );
    expect(await pendingJobs()).toBe(before + 1);
    await runBoth();
    expect(mail.mailsTo("rolled@example.com")).toHaveLength(0);
    expect(mail.mailsTo("kept@example.com")).toHaveLength(1);
  });

  it("runs each job exactly once when two servers run the queue at the same moment", async () => {
    const many = Array.from({ length: 45 }, (_, i) => letter(`many${i}@example.com`, `number ${i}`));
    for (const one of many) await queueMail(servers.one.db, one, clock.now());
    const runs = (await Promise.all([runBoth(), runBoth()])).flat();
    expect(runs.reduce((sum, run) => sum + run.done, 0)).toBe(many.length);
    for (const one of many) expect(mail.mailsTo(one.to), one.to).toHaveLength(1);
    expect(await pendingJobs()).toBe(0);
  });

  it("leaves a job claimed by a server that died to another once its lease runs out", async () => {
    await queueMail(servers.one.db, letter("lease@example.com", "leased"), clock.now());
    // What a claim does, by a server that then stopped before sending.
    await servers.one.db
      .update(jobs)
      .set({ attempts: 1, runAt: new Date(clock.now().getTime() + JOB_LEASE_MS) });
    clock.advanceMs(JOB_LEASE_MS - 1);
    expect(await servers.two.app.runJobs()).toEqual({ done: 0, retried: 0, failed: 0 });
    clock.advanceMs(1);
    expect(await servers.two.app.runJobs()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(mail.mailsTo("lease@example.com")).toHaveLength(1);
  });

  it("runs after a restart what was pending when the server stopped", async () => {
    await queueMail(servers.one.db, letter("restart@example.com", "after restart"), clock.now());
    await servers.two.close();
    expect(mail.mailsTo("restart@example.com")).toHaveLength(0);
    servers.two = await startTestApp({ ...options(), joining: servers.one.handle });
    expect(await servers.two.app.runJobs()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(mail.mailsTo("restart@example.com")).toHaveLength(1);
  });
});

describe("the app's own worker", () => {
  let app: TestContext;
  beforeAll(async () => {
    app = await startTestApp({ env: { SMTP_URL: mail.url }, joining: servers.one.handle });
  });
  afterAll(() => app.close());

  it("sends a queued mail by itself, woken as the queuing transaction commits", async () => {
    await app.db.transaction((tx) => queueMail(tx, letter("woken@example.com", "by itself"), new Date()));
    await expect.poll(() => mail.mailsTo("woken@example.com").length).toBe(1);
  });
});
