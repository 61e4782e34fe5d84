import { createServer, type IncomingHttpHeaders } from "node:http";
import { count, eq } from "drizzle-orm";
import { Webhook as Verifier } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  MAX_WEBHOOKS_PER_BUYER,
  webhookEvents,
  type CreatedApiKey,
  type CreatedWebhook,
  type Delivery,
  type DeliveryDetail,
  type DeliveryPage,
  type Submission,
  type Webhook,
} from "@taskmint/shared";
import { jobs, notifications, webhookDeliveries } from "../../db/schema/index.ts";
import { JOB_LEASE_MS } from "../../lib/job-queue.ts";
import { marketplaceTestFile, registerUser, startTestApp, type RegisteredUser } from "../../test/harness.ts";
import { expireTasks } from "../tasks/service.ts";
import { queueWebhookEvent } from "./service.ts";

// Issue 35, point 4 (decision 035): signed webhooks, delivered through the job queue. The app
// runs no worker of its own (JOB_POLL_MS=0): each test runs the due jobs, so counts are exact.

const { ctx, clock, call, newTask, submit } = marketplaceTestFile({ env: { JOB_POLL_MS: "0" } });

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on this machine: records every request, answers `status`. */
const receiver = { received: [] as Received[], status: 200, url: "", endpoints: 0 };
const server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => (body += chunk.toString()));
  request.on("end", () => {
    receiver.received.push({ path: request.url ?? "", headers: request.headers, body });
    response.writeHead(receiver.status).end("ok");
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  receiver.received = [];
  receiver.status = 200;
});

/** An endpoint at a path of the receiver's own, so what it gets is told from other tests' endpoints. */
async function newEndpoint(buyer: RegisteredUser, events: readonly string[] = webhookEvents) {
  receiver.endpoints += 1;
  const url = `${receiver.url}/${receiver.endpoints}`;
  const response = await call("POST", "/api/buyer/webhooks", buyer.cookie, { url, events });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedWebhook>();
}

/** What the endpoint got, each verified with its secret by the Standard Webhooks library, in the order it came. */
function verified(hook: CreatedWebhook) {
  const verifier = new Verifier(hook.secret);
  const path = new URL(hook.url).pathname;
  return receiver.received
    .filter((request) => request.path === path)
    .map((request) => {
      const payload = verifier.verify(request.body, request.headers as Record<string, string>) as {
        type: string;
        data: Record<string, string>;
      };
      return { id: String(request.headers["webhook-id"]), type: payload.type, data: payload.data };
    });
}

const webhookJobs = async () =>
  new Map((await ctx.db.select().from(jobs).where(eq(jobs.kind, "webhook"))).map((job) => [job.id, job]));
/** Runs the due jobs once: what became of the webhook deliveries' jobs among them (mail is a job too). */
const runJobs = async () => {
  const before = await webhookJobs();
  await ctx.app.runJobs();
  const after = await webhookJobs();
  const counts = { done: 0, retried: 0, failed: 0 };
  for (const [id, job] of before) {
    const now = after.get(id);
    if (!now) counts.done += 1;
    else if (now.failedAt && !job.failedAt) counts.failed += 1;
    else if (now.runAt.getTime() !== job.runAt.getTime()) counts.retried += 1;
  }
  return counts;
};
/** Deliveries run in parallel and arrive in any order (a receiver orders by the payload's timestamp). */
const unordered = (pairs: (string | undefined)[][]) => pairs.map((pair) => pair.join(" ")).sort();
/** Runs what is due (the sign-up mails of the users a test registered), so the counts after are the test's own. */
const settle = async () => {
  await runJobs();
  receiver.received = [];
};
const deliveriesOf = async (buyer: RegisteredUser, webhookId: string, query = "") => {
  const response = await call("GET", `/api/buyer/webhooks/${webhookId}/deliveries${query}`, buyer.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DeliveryPage>();
};
const deliveryCount = async () => (await ctx.db.select({ n: count() }).from(webhookDeliveries))[0]!.n;

describe("webhook endpoints", () => {
  it("are created with a secret shown once, listed without it, and refused where deliveries may not go", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const made = await newEndpoint(buyer, ["task.completed"]);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(made).toMatchObject({
      url: `${receiver.url}/${receiver.endpoints}`,
      events: ["task.completed"],
      status: "active",
      paused_at: null,
    });
    const listed = (await call("GET", "/api/buyer/webhooks", buyer.cookie)).json<Webhook[]>();
    expect(listed).toEqual([
      {
        id: made.id,
        url: made.url,
        events: made.events,
        status: "active",
        paused_at: null,
        created_at: made.created_at,
      },
    ]);
    for (const [url, events] of [
      ["http://example.com/hooks", ["task.completed"]],
      ["ftp://127.0.0.1/hooks", ["task.completed"]],
      ["https://user:pw@example.com/hooks", ["task.completed"]],
      ["not a url", ["task.completed"]],
      [receiver.url, []],
      [receiver.url, ["task.started"]],
      [receiver.url, ["task.completed", "task.completed"]],
    ] as const) {
      const refused = await call("POST", "/api/buyer/webhooks", buyer.cookie, { url, events });
      expect(refused.statusCode, `${url} ${events.join()}`).toBe(400);
      expect(refused.json<{ error: { code: string } }>().error.code).toBe("VALIDATION");
    }
    expect(
      (
        await call("POST", "/api/buyer/webhooks", buyer.cookie, {
          url: "https://example.com/h",
          events: ["task.expired"],
        })
      ).statusCode,
    ).toBe(201);
    expect((await call("GET", "/api/buyer/webhooks", buyer.cookie)).json<Webhook[]>()).toHaveLength(2);
  });

  it(`hold at most ${MAX_WEBHOOKS_PER_BUYER} per buyer, also when created in parallel`, async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const answers = await Promise.all(
      Array.from({ length: MAX_WEBHOOKS_PER_BUYER + 3 }, () =>
        call("POST", "/api/buyer/webhooks", buyer.cookie, { url: receiver.url, events: ["task.expired"] }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(MAX_WEBHOOKS_PER_BUYER);
    expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(3);
  });

  it("are another buyer's 404, as are their deliveries; workers are refused", async () => {
    const owner = await registerUser(ctx.app, "buyer");
    const other = await registerUser(ctx.app, "buyer");
    const made = await newEndpoint(owner);
    const test = (await call("POST", `/api/buyer/webhooks/${made.id}/test`, owner.cookie)).json<Delivery>();
    for (const [method, url, payload] of [
      ["PATCH", `/api/buyer/webhooks/${made.id}`, { active: false }],
      ["DELETE", `/api/buyer/webhooks/${made.id}`, undefined],
      ["POST", `/api/buyer/webhooks/${made.id}/test`, undefined],
      ["GET", `/api/buyer/webhooks/${made.id}/deliveries`, undefined],
      ["GET", `/api/buyer/webhooks/deliveries/${test.id}`, undefined],
      ["POST", `/api/buyer/webhooks/deliveries/${test.id}/resend`, undefined],
    ] as const) {
      const answer = await call(method, url, other.cookie, payload);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call("GET", "/api/buyer/webhooks", other.cookie)).json<Webhook[]>()).toEqual([]);
    const worker = await registerUser(ctx.app, "worker");
    expect((await call("GET", "/api/buyer/webhooks", worker.cookie)).statusCode).toBe(403);
    expect((await call("GET", "/api/buyer/webhooks")).statusCode).toBe(401);
  });

  it("are read and tested with an API key, but added, changed and removed only when signed in", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const made = await newEndpoint(buyer);
    const { key } = (
      await call("POST", "/api/buyer/api-keys", buyer.cookie, { name: "hooks" })
    ).json<CreatedApiKey>();
    const withKey = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object) =>
      call(method, url, undefined, payload, { authorization: `Bearer ${key}` });
    expect((await withKey("GET", "/api/buyer/webhooks")).json<Webhook[]>().map((hook) => hook.id)).toEqual([
      made.id,
    ]);
    const test = await withKey("POST", `/api/buyer/webhooks/${made.id}/test`);
    expect(test.statusCode, test.body).toBe(201);
    expect((await withKey("GET", `/api/buyer/webhooks/${made.id}/deliveries`)).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ["POST", "/api/buyer/webhooks", { url: receiver.url, events: ["task.expired"] }],
      ["PATCH", `/api/buyer/webhooks/${made.id}`, { url: "https://example.com/mine" }],
      ["DELETE", `/api/buyer/webhooks/${made.id}`, undefined],
    ] as const) {
      const refused = await withKey(method, url, payload);
      expect([401, 403], `${method} ${url}: ${refused.statusCode}`).toContain(refused.statusCode);
    }
    expect((await call("GET", "/api/buyer/webhooks", buyer.cookie)).json<Webhook[]>()[0]?.url).toBe(made.url);
  });
});

describe("webhook deliveries", () => {
  it("bring every subscribed event once, signed, with the same id on every attempt", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const hook = await newEndpoint(buyer);
    const onlyExpiry = await newEndpoint(buyer, ["task.expired"]);
    const task = await newTask(buyer, { required_workers: 2, payable_amount: 3 });
    const [first, second] = [await registerUser(ctx.app, "worker"), await registerUser(ctx.app, "worker")];
    await settle();
    const one = (await submit(first, task.id)).json<Submission>();
    const two = (await submit(second, task.id)).json<Submission>();
    expect((await call("POST", `/api/submissions/${one.id}/approve`, buyer.cookie)).statusCode).toBe(200);
    const rejected = await call("POST", `/api/submissions/${two.id}/reject`, buyer.cookie, {
      reason: "Not done",
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const appealed = await call("POST", `/api/submissions/${two.id}/appeal`, second.cookie, {
      message: "It is done",
    });
    expect(appealed.statusCode, appealed.body).toBe(200);
    expect(await runJobs()).toEqual({ done: 5, retried: 0, failed: 0 });
    const got = verified(hook);
    expect(unordered(got.map((event) => [event.type, event.data.submission_id]))).toEqual(
      unordered([
        ["submission.created", one.id],
        ["submission.created", two.id],
        ["submission.approved", one.id],
        ["submission.rejected", two.id],
        ["submission.appealed", two.id],
      ]),
    );
    expect(got.find((event) => event.type === "submission.approved")?.data).toEqual({
      submission_id: one.id,
      task_id: task.id,
      worker_id: first.user.id,
    });
    expect(new Set(got.map((event) => event.id)).size).toBe(5);
    // The rejection returned a slot to the open task: it is not complete. Nothing more is due.
    expect(await runJobs()).toEqual({ done: 0, retried: 0, failed: 0 });
    expect(receiver.received).toHaveLength(5);
    expect((await deliveriesOf(buyer, onlyExpiry.id)).items).toEqual([]);
    const listed = await deliveriesOf(buyer, hook.id);
    expect(
      unordered(listed.items.map((delivery) => [delivery.event, delivery.status, String(delivery.attempts)])),
    ).toEqual(unordered(got.map((event) => [event.type, "succeeded", "1"])));
  });

  it("tell task.completed once, when the last slot is decided, also when both are decided at once", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const hook = await newEndpoint(buyer, ["task.completed"]);
    const task = await newTask(buyer, { required_workers: 2, payable_amount: 1 });
    const ids: string[] = [];
    for (const worker of [await registerUser(ctx.app, "worker"), await registerUser(ctx.app, "worker")])
      ids.push((await submit(worker, task.id)).json<Submission>().id);
    await settle();
    const answers = await Promise.all(
      ids.map((id) => call("POST", `/api/submissions/${id}/approve`, buyer.cookie)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(await runJobs()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(verified(hook).map((event) => [event.type, event.data.task_id])).toEqual([
      ["task.completed", task.id],
    ]);
  });

  it("tell task.expired once, though two servers expire the task at the same moment", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const hook = await newEndpoint(buyer, ["task.expired"]);
    const task = await newTask(buyer, { required_workers: 1 });
    await settle();
    clock.advanceDays(9);
    await Promise.all([expireTasks(ctx.db, clock.now()), expireTasks(ctx.db, clock.now())]);
    await runJobs();
    expect(verified(hook).map((event) => [event.type, event.data.task_id])).toEqual([
      ["task.expired", task.id],
    ]);
  });

  it("queue nothing for a change that rolls back", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    await newEndpoint(buyer);
    const task = await newTask(buyer, { required_workers: 3 });
    const worker = await registerUser(ctx.app, "worker");
    await settle();
    expect((await submit(worker, task.id)).statusCode).toBe(201);
    const before = await deliveryCount();
    // A second submission of the same worker fails in the statement that would tell of it.
    expect((await submit(worker, task.id)).statusCode).toBe(409);
    await expect(
      ctx.db.transaction(async (tx) => {
        await queueWebhookEvent(tx, {
          buyerId: buyer.user.id,
          type: "task.expired",
          data: { task_id: task.id },
          now: clock.now(),
        });
        throw new Error("the change fails");
      }),
    ).rejects.toThrow("the change fails");
    expect(await deliveryCount()).toBe(before);
    expect(await runJobs()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(receiver.received).toHaveLength(1);
  });

  it("are retried with back-off after a failing answer, each attempt stored, until one succeeds; then resent on request", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const hook = await newEndpoint(buyer);
    await settle();
    receiver.status = 500;
    const test = await call("POST", `/api/buyer/webhooks/${hook.id}/test`, buyer.cookie);
    expect(test.statusCode, test.body).toBe(201);
    const delivery = test.json<Delivery>();
    expect(await runJobs()).toEqual({ done: 0, retried: 1, failed: 0 });
    clock.advanceMs(4_999);
    expect(await runJobs()).toEqual({ done: 0, retried: 0, failed: 0 });
    clock.advanceMs(1);
    expect(await runJobs()).toEqual({ done: 0, retried: 1, failed: 0 });
    const pending = (await deliveriesOf(buyer, hook.id)).items[0];
    expect(pending).toMatchObject({ id: delivery.id, status: "pending", attempts: 2 });
    expect(pending?.next_attempt_at).toBe(new Date(clock.now().getTime() + 300_000).toISOString());
    const busy = await call("POST", `/api/buyer/webhooks/deliveries/${delivery.id}/resend`, buyer.cookie);
    expect(busy.statusCode).toBe(409);
    receiver.status = 204;
    clock.advanceMs(300_000);
    expect(await runJobs()).toEqual({ done: 1, retried: 0, failed: 0 });
    const detail = (
      await call("GET", `/api/buyer/webhooks/deliveries/${delivery.id}`, buyer.cookie)
    ).json<DeliveryDetail>();
    expect(detail).toMatchObject({
      status: "succeeded",
      attempts: 3,
      event: "webhook.test",
      webhook_id: hook.id,
    });
    expect(detail.attempt_log.map((attempt) => attempt.response_status)).toEqual([500, 500, 204]);
    expect(detail.payload).toMatchObject({ type: "webhook.test", data: { webhook_id: hook.id } });
    const sent = verified(hook);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((event) => event.id))).toEqual(new Set([delivery.event_id]));

    const resent = await call("POST", `/api/buyer/webhooks/deliveries/${delivery.id}/resend`, buyer.cookie);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json<Delivery>()).toMatchObject({ status: "pending", attempts: 3 });
    expect(await runJobs()).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(verified(hook).map((event) => event.id)).toEqual(Array(4).fill(delivery.event_id));
  });

  it("give up after a day of failures, pause the endpoint and tell its buyer once", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const hook = await newEndpoint(buyer);
    await settle();
    receiver.status = 503;
    const delivery = (
      await call("POST", `/api/buyer/webhooks/${hook.id}/test`, buyer.cookie)
    ).json<Delivery>();
    const started = clock.now().getTime();
    let attempts = 0;
    for (;;) {
      const counts = await runJobs();
      attempts += counts.retried + counts.done;
      const [current] = (await deliveriesOf(buyer, hook.id)).items;
      if (current?.status !== "pending") break;
      clock.advanceMs(new Date(current.next_attempt_at!).getTime() - clock.now().getTime());
    }
    expect(clock.now().getTime() - started).toBe(24 * 3_600_000);
    const [failed] = (await deliveriesOf(buyer, hook.id)).items;
    expect(failed).toMatchObject({ id: delivery.id, status: "failed", attempts: 8 });
    expect(attempts).toBe(8);
    const [endpoint] = (await call("GET", "/api/buyer/webhooks", buyer.cookie)).json<Webhook[]>();
    expect(endpoint).toMatchObject({ status: "paused", paused_at: clock.now().toISOString() });
    const told = await ctx.db.select().from(notifications).where(eq(notifications.userId, buyer.user.id));
    expect(told.filter((row) => row.message.includes("paused"))).toHaveLength(1);
    // Paused: events no longer go to it, a test is refused; resumed, they go again.
    expect((await call("POST", `/api/buyer/webhooks/${hook.id}/test`, buyer.cookie)).statusCode).toBe(409);
    const resumed = await call("PATCH", `/api/buyer/webhooks/${hook.id}`, buyer.cookie, { active: true });
    expect(resumed.json<Webhook>()).toMatchObject({ status: "active", paused_at: null });
    receiver.status = 200;
    expect(
      (await call("POST", `/api/buyer/webhooks/deliveries/${delivery.id}/resend`, buyer.cookie)).statusCode,
    ).toBe(200);
    expect(await runJobs()).toEqual({ done: 1, retried: 0, failed: 0 });
  });

  it("are sent once by one of two servers, also when a server dies mid-delivery", async () => {
    const two = await startTestApp({ env: { JOB_POLL_MS: "0" }, clock, joining: ctx.handle });
    try {
      const buyer = await registerUser(ctx.app, "buyer");
      const hook = await newEndpoint(buyer);
      await settle();
      const made = await Promise.all(
        Array.from({ length: 12 }, () => call("POST", `/api/buyer/webhooks/${hook.id}/test`, buyer.cookie)),
      );
      expect(made.every((answer) => answer.statusCode === 201)).toBe(true);
      await Promise.all([runJobs(), two.app.runJobs(), runJobs(), two.app.runJobs()]);
      expect(receiver.received).toHaveLength(12);
      expect(new Set(verified(hook).map((event) => event.id)).size).toBe(12);

      // A server claims the next delivery's job and dies before sending: the other sends it once the lease is over.
      receiver.received = [];
      const lost = (await call("POST", `/api/buyer/webhooks/${hook.id}/test`, buyer.cookie)).json<Delivery>();
      await ctx.db.update(jobs).set({ attempts: 1, runAt: new Date(clock.now().getTime() + JOB_LEASE_MS) });
      expect(await two.app.runJobs()).toEqual({ done: 0, retried: 0, failed: 0 });
      clock.advanceMs(JOB_LEASE_MS);
      expect(await two.app.runJobs()).toEqual({ done: 1, retried: 0, failed: 0 });
      expect(verified(hook).map((event) => event.id)).toEqual([lost.event_id]);
      expect(await runJobs()).toEqual({ done: 0, retried: 0, failed: 0 });
    } finally {
      await two.close();
    }
  });

  it("page by cursor, newest first", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const hook = await newEndpoint(buyer);
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      made.push(
        (await call("POST", `/api/buyer/webhooks/${hook.id}/test`, buyer.cookie)).json<Delivery>().id,
      );
      clock.advanceMs(1);
    }
    const first = await deliveriesOf(buyer, hook.id, "?limit=2");
    const second = await deliveriesOf(buyer, hook.id, `?limit=2&cursor=${first.next_cursor}`);
    const third = await deliveriesOf(buyer, hook.id, `?limit=2&cursor=${second.next_cursor}`);
    expect([...first.items, ...second.items, ...third.items].map((item) => item.id)).toEqual(
      [...made].reverse(),
    );
    expect(third.next_cursor).toBeNull();
    const bad = await call("GET", `/api/buyer/webhooks/${hook.id}/deliveries?cursor=nonsense`, buyer.cookie);
    expect(bad.statusCode).toBe(400);
    await runJobs();
  });
});
