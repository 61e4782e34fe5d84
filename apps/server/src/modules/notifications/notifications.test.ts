import type { ReadableStream } from "node:stream/web";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Submission, Task } from "@taskmint/shared";
import { notifications } from "../../db/schema/index.ts";
import {
  notifyUser,
  postTask,
  type RegisteredUser,
  registerUser,
  startTestApp,
  testAppPerFile,
} from "../../test/harness.ts";
import type { AppNotification } from "@taskmint/shared";
import { notify } from "./service.ts";

const ctx = testAppPerFile();

type Method = "GET" | "POST";
const call = (method: Method, url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
const inbox = async (who: RegisteredUser) =>
  (await call("GET", "/api/notifications", who.cookie)).json<{
    items: AppNotification[];
    unread: number;
    total: number;
  }>();

describe("notifications (rule R15)", () => {
  it("tells the buyer of a submission, and the worker of the approval or the rejection with its reason, once each", async () => {
    const buyer = await registerUser(ctx.app, "buyer", { name: "Nina Buyer" });
    const task = (
      await postTask(ctx.app, buyer.cookie, {
        task_title: "Rate our logo",
        required_workers: 2,
        payable_amount: 7,
      })
    ).json<Task>();
    const approved = await registerUser(ctx.app, "worker", { name: "Amir Approved" });
    const rejected = await registerUser(ctx.app, "worker", { name: "Rosa Rejected" });
    const first = (
      await call("POST", `/api/tasks/${task.id}/submissions`, approved.cookie, { submission_details: "8/10" })
    ).json<Submission>();
    const second = (
      await call("POST", `/api/tasks/${task.id}/submissions`, rejected.cookie, { submission_details: "meh" })
    ).json<Submission>();

    const buyerInbox = await inbox(buyer);
    expect(buyerInbox.total).toBe(2);
    expect(buyerInbox.items.map((item) => item.message)).toEqual([
      'Rosa Rejected submitted work for "Rate our logo"',
      'Amir Approved submitted work for "Rate our logo"',
    ]);
    expect(buyerInbox.items[0]).toMatchObject({ action_route: "/dashboard/BuyersHome", read: false });

    await call("POST", `/api/submissions/${first.id}/approve`, buyer.cookie);
    await call("POST", `/api/submissions/${second.id}/reject`, buyer.cookie, {
      reason: "Please give a score and a reason",
    });
    expect((await inbox(approved)).items.map((item) => item.message)).toEqual([
      'You have earned 7 coins from Nina Buyer for "Rate our logo"',
    ]);
    expect((await inbox(rejected)).items.map((item) => item.message)).toEqual([
      'Your submission for "Rate our logo" was rejected: Please give a score and a reason. You can appeal within 7 days.',
    ]);
    expect((await inbox(buyer)).total).toBe(2);
  });

  it("says coin, not coins, when an approval pays one coin", async () => {
    const buyer = await registerUser(ctx.app, "buyer", { name: "Olga One" });
    const task = (
      await postTask(ctx.app, buyer.cookie, {
        task_title: "Like a post",
        required_workers: 1,
        payable_amount: 1,
      })
    ).json<Task>();
    const worker = await registerUser(ctx.app, "worker");
    const submission = (
      await call("POST", `/api/tasks/${task.id}/submissions`, worker.cookie, { submission_details: "Liked" })
    ).json<Submission>();
    await call("POST", `/api/submissions/${submission.id}/approve`, buyer.cookie);
    expect((await inbox(worker)).items.map((item) => item.message)).toEqual([
      'You have earned 1 coin from Olga One for "Like a post"',
    ]);
  });

  it("marks read only your own notifications", async () => {
    const alice = await registerUser(ctx.app, "worker");
    const bob = await registerUser(ctx.app, "worker");
    await notifyUser(ctx, alice.user.id, "for Alice");
    await notifyUser(ctx, bob.user.id, "for Bob");
    const bobsId = (await inbox(bob)).items[0]?.id ?? "";
    expect((await call("POST", "/api/notifications/read", alice.cookie, { ids: [bobsId] })).json()).toEqual({
      updated: 0,
    });
    expect((await inbox(bob)).unread).toBe(1);
    expect((await inbox(alice)).items.map((item) => item.message)).toEqual(["for Alice"]);
    expect((await call("POST", "/api/notifications/read", alice.cookie, { all: true })).json()).toEqual({
      updated: 1,
    });
    expect((await inbox(alice)).unread).toBe(0);
    expect(
      (await call("POST", "/api/notifications/read", alice.cookie, { ids: ["not-a-uuid"] })).statusCode,
    ).toBe(400);
    expect(await ctx.db.$count(notifications, eq(notifications.userId, bob.user.id))).toBe(1);
  });
});

type StreamEvent = { event: string; data: unknown };

/**
 * Reads a Server-Sent Events stream until `enough` says so, the stream ends or 15 s pass;
 * `trigger` runs once the stream is open (its subscription is made before its first line).
 */
async function readStream(
  url: string,
  cookie: string,
  enough: (events: StreamEvent[]) => boolean,
  trigger: () => Promise<void> = async () => {},
): Promise<StreamEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 15_000);
  const response = await fetch(url, {
    headers: { cookie, accept: "text/event-stream" },
    signal: controller.signal,
  });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  if (!reader) throw new Error("no body");
  const events: StreamEvent[] = [];
  let buffer = "";
  let triggered = false;
  try {
    while (!enough(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += new TextDecoder().decode(value);
      if (!triggered && buffer.includes("retry:")) {
        triggered = true;
        await trigger();
      }
      for (const block of buffer.split("\n\n").slice(0, -1)) {
        const lines = block.split("\n");
        const name = lines.find((line) => line.startsWith("event: "));
        const data = lines.find((line) => line.startsWith("data: "));
        if (name && data) events.push({ event: name.slice(7), data: JSON.parse(data.slice(6)) as unknown });
      }
      buffer = buffer.slice(buffer.lastIndexOf("\n\n") + 2);
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

const notificationsIn = (events: StreamEvent[]) =>
  events.filter((event) => event.event === "notification").map((event) => event.data as AppNotification);

/** The notifications pushed on the stream until `want` arrived (or the time runs out). */
async function readEvents(
  url: string,
  cookie: string,
  want: number,
  trigger: () => Promise<void>,
): Promise<AppNotification[]> {
  return notificationsIn(
    await readStream(url, cookie, (events) => notificationsIn(events).length >= want, trigger),
  );
}

/** The stream's first event. */
async function firstEvent(url: string, cookie: string): Promise<StreamEvent | undefined> {
  const [first] = await readStream(url, cookie, (events) => events.length > 0);
  return first;
}

describe("the live stream", () => {
  let url = "";
  beforeAll(async () => {
    url = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  });

  it("pushes a new notification to the signed-in user only", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "worker");
    const events = await readEvents(`${url}/api/notifications/stream`, worker.cookie, 1, async () => {
      await notifyUser(ctx, other.user.id, "not for you");
      await notifyUser(ctx, worker.user.id, "hello live", { actionRoute: "/dashboard/my-submissions" });
    });
    expect(events.map((event) => event.message)).toEqual(["hello live"]);
  });

  it("begins the stream with the newest notification's id, as the profile names it, so a page can tell what it missed", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const latestInProfile = async () =>
      (await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: worker.cookie } })).json<{
        latest_notification_id: string | null;
      }>().latest_notification_id;
    expect(await latestInProfile()).toBeNull();
    expect(await firstEvent(`${url}/api/notifications/stream`, worker.cookie)).toEqual({
      event: "ready",
      data: { latest_id: null },
    });
    for (const message of ["first", "second"])
      await notify(ctx.db, { userId: worker.user.id, message, actionRoute: "/dashboard", kind: "other" });
    const listed = await ctx.app.inject({
      method: "GET",
      url: "/api/notifications?limit=10",
      headers: { cookie: worker.cookie },
    });
    const newest = listed.json<{ items: AppNotification[] }>().items[0];
    // Which of the two is newest is the list's business (two made within PGlite's clock tick
    // tie on created_at); the stream and the profile must name the same one.
    expect(newest).toBeDefined();
    expect(await firstEvent(`${url}/api/notifications/stream`, worker.cookie)).toEqual({
      event: "ready",
      data: { latest_id: newest?.id },
    });
    expect(await latestInProfile()).toBe(newest?.id);
  });

  it("delivers a notification made by a second server on the same database", async () => {
    const second = await startTestApp({ joining: ctx.handle });
    try {
      const worker = await registerUser(ctx.app, "worker");
      const events = await readEvents(`${url}/api/notifications/stream`, worker.cookie, 1, async () => {
        await notifyUser(second, worker.user.id, "from the other process");
      });
      expect(events.map((event) => event.message)).toEqual(["from the other process"]);
    } finally {
      await second.close();
    }
  });
});
