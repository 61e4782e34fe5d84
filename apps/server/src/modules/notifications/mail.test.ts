import { and, count, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { MAIL_KINDS, mailKinds, type NotificationSettings } from "@taskmint/shared";
import { notifications, outgoingMails } from "../../db/schema/index.ts";
import {
  marketplaceCalls,
  notifyUser,
  type RegisteredUser,
  registerUser,
  signInAdmin,
  TEST_ORIGIN,
  testAppPerFile,
  TestClock,
} from "../../test/harness.ts";
import { mailCatcherPerFile } from "../../test/mail-catcher.ts";
import { MAIL_RETRY_MINUTES, unsubscribeToken } from "./mail.ts";
import { notify } from "./service.ts";

// Rule R29: per kind, mail or the bell only; mails queued with their event, sent in the
// background, retried, each with a signed one-click unsubscribe.

const clock = new TestClock();
const mail = mailCatcherPerFile();
// No worker of the app's own (JOB_POLL_MS=0): each test runs the job queue itself (decision 034).
const ctx = testAppPerFile(() => ({ env: { SMTP_URL: mail.url, JOB_POLL_MS: "0" }, clock }));
const { call, pendingSubmission } = marketplaceCalls(() => ctx.app, clock);

const settingsOf = async (user: RegisteredUser) => {
  const answer = await call("GET", "/api/me/notification-settings", user.cookie);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<NotificationSettings>();
};
const defaults = Object.fromEntries(mailKinds.map((kind) => [kind, MAIL_KINDS[kind].byDefault]));

const queuedFor = async (userId: string, kind?: string) =>
  (
    await ctx.db
      .select({ n: count() })
      .from(outgoingMails)
      .innerJoin(notifications, eq(notifications.id, outgoingMails.notificationId))
      .where(and(eq(notifications.userId, userId), kind ? eq(notifications.kind, kind) : undefined))
  )[0]?.n;

/** Notification mails' ends so far: sent, dropped, and attempts made. */
const tally = async () =>
  (
    await ctx.db
      .select({
        sent: sql<number>`count(${outgoingMails.sentAt})::int`,
        dropped: sql<number>`count(${outgoingMails.droppedAt})::int`,
        attempts: sql<number>`coalesce(sum(${outgoingMails.attempts}), 0)::int`,
      })
      .from(outgoingMails)
  )[0]!;

/** Runs the due jobs once: what became of the notification mails among them. */
const deliverMails = async () => {
  const before = await tally();
  await ctx.app.runJobs();
  const after = await tally();
  const sent = after.sent - before.sent;
  const dropped = after.dropped - before.dropped;
  return { sent, retried: after.attempts - before.attempts - sent - dropped, dropped };
};

const approve = (buyer: RegisteredUser, submissionId: string) =>
  call("POST", `/api/submissions/${submissionId}/approve`, buyer.cookie);

describe("notification settings", () => {
  it("start at each kind's default, and notify_user queues mail by the same defaults", async () => {
    const user = await registerUser(ctx.app, "worker");
    expect(await settingsOf(user)).toEqual(defaults);
    for (const kind of mailKinds) {
      await notify(ctx.db, { userId: user.user.id, message: `about ${kind}`, actionRoute: "/", kind });
      expect(await queuedFor(user.user.id, kind), kind).toBe(MAIL_KINDS[kind].byDefault === "mail" ? 1 : 0);
    }
    // Bell-only notifications are never mailed.
    await notifyUser(ctx, user.user.id, "a slot ran out", { actionRoute: "/" });
    expect(await queuedFor(user.user.id)).toBe(mailKinds.filter((kind) => defaults[kind] === "mail").length);
  });

  it("change only the kinds named, and refuse anything else, changing nothing", async () => {
    const user = await registerUser(ctx.app, "buyer");
    const put = (payload: object) => call("PUT", "/api/me/notification-settings", user.cookie, payload);
    const changed = await put({ work_submitted: "mail", bonus_received: "bell" });
    expect(changed.statusCode, changed.body).toBe(200);
    const expected = { ...defaults, work_submitted: "mail", bonus_received: "bell" };
    expect(changed.json()).toEqual(expected);
    for (const bad of [{}, { work_submitted: "sms" }, { everything: "mail" }, { work_decided: null }, []]) {
      const answer = await put(bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(answer.json()).toMatchObject({ error: { code: "VALIDATION" } });
    }
    expect(await settingsOf(user)).toEqual(expected);
    expect((await call("GET", "/api/me/notification-settings")).statusCode).toBe(401);
    expect(
      (await call("PUT", "/api/me/notification-settings", undefined, { work_decided: "bell" })).statusCode,
    ).toBe(401);
  });
});

describe("notification mails", () => {
  // Each test counts only its own mails: earlier tests' queue goes out first.
  beforeEach(async () => {
    while ((await deliverMails()).sent > 0);
  });

  it("mails a decision with a link to the page and a signed one-click unsubscribe that works", async () => {
    const { buyer, worker, submission } = await pendingSubmission({ task_title: "Rate 5 logos" });
    // Work submitted stays on the buyer's bell by default.
    expect(await queuedFor(buyer.user.id)).toBe(0);
    expect((await approve(buyer, submission.id)).statusCode).toBe(200);
    expect(await queuedFor(worker.user.id)).toBe(1);
    // Nothing leaves in the request: the job sends it.
    expect(mail.mailsTo(worker.email, "Rate 5 logos")).toEqual([]);
    expect(await deliverMails()).toEqual({ sent: 1, retried: 0, dropped: 0 });
    const received = await mail.waitFor(worker.email, "Rate 5 logos");
    expect(received.subject).toMatch(/^TaskMint: You have earned/);
    expect(received.text).toContain(`${TEST_ORIGIN}/dashboard/my-submissions`);
    const oneClick = /^<(.+)>$/.exec(received.headers.get("list-unsubscribe") ?? "")?.[1] ?? "";
    expect(oneClick).toMatch(new RegExp(`^${TEST_ORIGIN}/api/unsubscribe\\?token=`));
    expect(received.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(received.text).toContain(`${TEST_ORIGIN}/unsubscribe?token=`);
    // Sent once: the next run finds nothing.
    expect(await deliverMails()).toEqual({ sent: 0, retried: 0, dropped: 0 });

    // The mail client's one-click POST (a form, no cookie, no Origin).
    const url = new URL(oneClick);
    const unsubscribed = await ctx.app.inject({
      method: "POST",
      url: `${url.pathname}${url.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(200);
    expect(unsubscribed.json()).toEqual({
      kind: "work_decided",
      label: MAIL_KINDS.work_decided.label,
      channel: "bell",
    });
    expect((await settingsOf(worker)).work_decided).toBe("bell");

    // The next decision rings the bell only.
    const second = await pendingSubmission();
    const again = await call("POST", `/api/tasks/${second.task.id}/submissions`, worker.cookie, {
      submission_details: "Done again",
    });
    expect(again.statusCode, again.body).toBe(201);
    expect((await approve(second.buyer, again.json<{ id: string }>().id)).statusCode).toBe(200);
    expect(await queuedFor(worker.user.id)).toBe(1);
  });

  it("takes the web page's JSON too, and refuses forged, altered or foreign tokens, changing nothing", async () => {
    const user = await registerUser(ctx.app, "worker");
    const good = unsubscribeToken(ctx.app.mailSigningKey, user.user.id, "bonus_received");
    const post = (payload: object, query = "") =>
      ctx.app.inject({ method: "POST", url: `/api/unsubscribe${query}`, payload });
    const forged = [
      unsubscribeToken("another-key", user.user.id, "bonus_received"),
      good.replace("bonus_received", "work_decided"),
      good.replace(user.user.id, "00000000-0000-4000-8000-000000000000"),
      `${good}x`,
      "not-a-token",
      "a.b\u0000.c",
    ];
    for (const token of forged) {
      const answer = await post({ token });
      expect(answer.statusCode, token).toBe(400);
      expect(answer.json()).toMatchObject({ error: { code: "VALIDATION" } });
    }
    expect((await post({})).statusCode).toBe(400);
    expect((await post({ token: good, extra: 1 })).statusCode).toBe(400);
    expect(await settingsOf(user)).toEqual(defaults);
    const answer = await post({ token: good });
    expect(answer.statusCode, answer.body).toBe(200);
    expect((await settingsOf(user)).bonus_received).toBe("bell");
    // Once more is harmless.
    expect((await post({}, `?token=${good}`)).statusCode).toBe(200);
  });

  it("mails only confirmed addresses, and drops a queued mail the user turned off before it left", async () => {
    const unverified = await registerUser(ctx.app, "worker", { unverified: true });
    await notifyUser(ctx, unverified.user.id, "A bonus", { actionRoute: "/", kind: "bonus_received" });
    expect(await queuedFor(unverified.user.id)).toBe(0);

    const changedMind = await registerUser(ctx.app, "worker");
    await notifyUser(ctx, changedMind.user.id, "A second bonus", {
      actionRoute: "/",
      kind: "bonus_received",
    });
    expect(await queuedFor(changedMind.user.id)).toBe(1);
    await call("PUT", "/api/me/notification-settings", changedMind.cookie, { bonus_received: "bell" });
    expect(await deliverMails()).toEqual({ sent: 0, retried: 0, dropped: 1 });
    expect(mail.mailsTo(changedMind.email, "bonus")).toEqual([]);
  });

  it("drops a mail only by its own user's choice for its own kind, and a deleted user's mail", async () => {
    const user = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "worker");
    // The user turned another kind off; another user turned this kind off.
    expect(
      (await call("PUT", "/api/me/notification-settings", user.cookie, { work_decided: "bell" })).statusCode,
    ).toBe(200);
    expect(
      (await call("PUT", "/api/me/notification-settings", other.cookie, { bonus_received: "bell" }))
        .statusCode,
    ).toBe(200);
    await notifyUser(ctx, user.user.id, "A bonus kept", { actionRoute: "/", kind: "bonus_received" });
    expect(await deliverMails()).toEqual({ sent: 1, retried: 0, dropped: 0 });
    expect(await mail.waitFor(user.email, "A bonus kept")).toBeTruthy();

    const leaving = await registerUser(ctx.app, "worker");
    await notifyUser(ctx, leaving.user.id, "A bonus for a deleted account", {
      actionRoute: "/",
      kind: "bonus_received",
    });
    expect(await queuedFor(leaving.user.id)).toBe(1);
    const admin = await signInAdmin(ctx, "mail-admin@example.com");
    const removed = await call("DELETE", `/api/admin/users/${leaving.user.id}`, admin.cookie, {
      coins: "forfeit",
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await deliverMails()).toEqual({ sent: 0, retried: 0, dropped: 1 });
    expect(mail.mailsTo(leaving.email, "bonus")).toEqual([]);
  });

  it("retries a mail the provider refuses after 1, 5, 30 and 120 minutes, then gives up; sends it once when it recovers", async () => {
    const flaky = await registerUser(ctx.app, "worker");
    await notifyUser(ctx, flaky.user.id, "Bonus one", { actionRoute: "/", kind: "bonus_received" });
    const stateOf = async () =>
      (
        await ctx.db
          .select()
          .from(outgoingMails)
          .where(
            eq(
              outgoingMails.notificationId,
              sql`(select id from notifications where user_id = ${flaky.user.id} limit 1)`,
            ),
          )
      )[0];
    mail.refuse("mailbox busy");
    try {
      for (const [attempt, minutes] of MAIL_RETRY_MINUTES.entries()) {
        expect(await deliverMails(), `attempt ${attempt + 1}`).toEqual({
          sent: 0,
          retried: 1,
          dropped: 0,
        });
        const state = await stateOf();
        expect(state?.attempts).toBe(attempt + 1);
        expect(state?.nextAttemptAt?.getTime()).toBe(clock.now().getTime() + minutes * 60_000);
        expect(state?.lastError).toContain("mailbox busy");
        // Not due yet: nothing happens a second early.
        clock.advanceMs(minutes * 60_000 - 1000);
        expect(await deliverMails()).toEqual({ sent: 0, retried: 0, dropped: 0 });
        clock.advanceMs(1000);
      }
      expect(await deliverMails()).toEqual({ sent: 0, retried: 0, dropped: 1 });
      expect((await stateOf())?.droppedAt).not.toBeNull();
      expect(await deliverMails()).toEqual({ sent: 0, retried: 0, dropped: 0 });

      // A second mail, refused once, goes out once the provider is back.
      await notifyUser(ctx, flaky.user.id, "Bonus two", { actionRoute: "/", kind: "bonus_received" });
      expect(await deliverMails()).toEqual({ sent: 0, retried: 1, dropped: 0 });
    } finally {
      mail.refuse(null);
    }
    clock.advanceMs(60_000);
    expect(await deliverMails()).toEqual({ sent: 1, retried: 0, dropped: 0 });
    expect(mail.mailsTo(flaky.email, "Bonus two")).toHaveLength(1);
    expect(mail.mailsTo(flaky.email, "Bonus one")).toEqual([]);
  });

  it("sends each mail once when several runs race for the queue", async () => {
    const busy = await registerUser(ctx.app, "worker");
    for (let index = 0; index < 30; index += 1)
      await notifyUser(ctx, busy.user.id, `Race ${index}`, { actionRoute: "/", kind: "bonus_received" });
    const before = await tally();
    await Promise.all([0, 1, 2, 3].map(() => ctx.app.runJobs()));
    expect((await tally()).sent - before.sent).toBe(30);
    expect(await deliverMails()).toEqual({ sent: 0, retried: 0, dropped: 0 });
    expect(mail.mailsTo(busy.email, "Race")).toHaveLength(30);
    expect(new Set(mail.mailsTo(busy.email, "Race").map((item) => item.subject)).size).toBe(30);
  });
});
