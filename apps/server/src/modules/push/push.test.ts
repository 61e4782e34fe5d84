import { and, eq } from "drizzle-orm";
import webPush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PushPayload, QuietHours } from "@taskmint/shared";
import { jobs, pushSubscriptions, sessions, vapidKeys } from "../../db/schema/index.ts";
import {
  marketplaceTestFile,
  registerUser,
  sessionCookie,
  signIn,
  startTestApp,
  TEST_ORIGIN,
  type RegisteredUser,
} from "../../test/harness.ts";
import { EnvError, loadEnv } from "../../env.ts";
import { startPushReceiver, type PushReceiver, type TestDevice } from "./push-receiver.ts";
import { loadVapid, MAX_PUSH_DEVICES, PUSH_RETRY_JOB, queuePush } from "./service.ts";

// Issue 36, point 5 (decision 038): Web Push through a real local push service that checks each
// push's VAPID signature and decrypts it. The app runs no job worker (JOB_POLL_MS=0): each test
// runs the due jobs itself.

const { ctx, clock, call } = marketplaceTestFile({ env: { JOB_POLL_MS: "0" } });

let receiver: PushReceiver;
beforeAll(async () => {
  receiver = await startPushReceiver();
});
afterAll(() => receiver.close());

const subscribe = (
  user: RegisteredUser,
  device: Pick<TestDevice, "endpoint" | "keys">,
  cookie = user.cookie,
) => call("POST", "/api/me/push-subscriptions", cookie, { endpoint: device.endpoint, keys: device.keys });

async function subscribed(user: RegisteredUser, cookie = user.cookie) {
  const device = receiver.newDevice();
  const response = await subscribe(user, device, cookie);
  expect(response.statusCode, response.body).toBe(201);
  return device;
}

const payloadFor = (tag: string): PushPayload => ({
  title: "3 new tasks match 'review'",
  body: "Review a café's menu, and 2 more",
  url: "/dashboard/task-details/abc",
  tag,
});

/** Queues a push to the user as another module would, and runs what is due. */
async function push(user: RegisteredUser, payload = payloadFor("search-1")) {
  await queuePush(ctx.db, { userId: user.user.id, payload, now: clock.now() });
  await ctx.app.runJobs();
}

const rowsOf = (endpoint: string) =>
  ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
const devicesOf = (user: RegisteredUser) =>
  ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.user.id));
const publicKey = async (user: RegisteredUser) =>
  (await call("GET", "/api/push/public-key", user.cookie)).json<{ key: string }>().key;

describe("push endpoints", () => {
  it("answer a visitor 401 and change nothing", async () => {
    const device = receiver.newDevice();
    for (const [method, url, body] of [
      ["GET", "/api/push/public-key", undefined],
      ["POST", "/api/me/push-subscriptions", { endpoint: device.endpoint, keys: device.keys }],
      ["DELETE", "/api/me/push-subscriptions", { endpoint: device.endpoint }],
      ["GET", "/api/me/quiet-hours", undefined],
      ["PUT", "/api/me/quiet-hours", { enabled: true, from: "22:00", to: "07:00", time_zone: "UTC" }],
    ] as const) {
      const response = await call(method, url, undefined, body);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await rowsOf(device.endpoint)).toHaveLength(0);
  });
});

describe("the VAPID public key", () => {
  it("is made once, kept in the database and the same for a second server on it", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const key = await publicKey(worker);
    expect(Buffer.from(key, "base64url")).toHaveLength(65);
    const kept = await ctx.db.select().from(vapidKeys);
    expect(kept.map((row) => row.publicKey)).toEqual([key]);

    const restarted = await startTestApp({ joining: ctx.handle });
    try {
      const again = await restarted.app.inject({
        method: "GET",
        url: "/api/push/public-key",
        headers: { cookie: worker.cookie },
      });
      expect(again.json()).toEqual({ key });
    } finally {
      await restarted.close();
    }
  });

  it("is the one pair whichever of two servers starting at once on an empty table makes it", async () => {
    const [kept] = await ctx.db.select().from(vapidKeys);
    await ctx.db.delete(vapidKeys);
    try {
      const env = loadEnv({ NODE_ENV: "test", PUBLIC_URL: TEST_ORIGIN });
      const [one, two] = await Promise.all([
        loadVapid(ctx.db, env, clock.now()),
        loadVapid(ctx.db, env, clock.now()),
      ]);
      expect(one.publicKey).toBe(two.publicKey);
      expect(one.privateKey).toBe(two.privateKey);
      expect((await ctx.db.select().from(vapidKeys)).map((row) => row.publicKey)).toEqual([one.publicKey]);
    } finally {
      // The file's app signs with the pair it loaded: put it back.
      await ctx.db.delete(vapidKeys);
      await ctx.db.insert(vapidKeys).values(kept!);
    }
  });

  it("from the environment is a whole P-256 pair, or the server does not start", () => {
    const pair = webPush.generateVAPIDKeys();
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadEnv(env);
        return "";
      } catch (error) {
        expect(error).toBeInstanceOf(EnvError);
        return (error as EnvError).problems.join("\n");
      }
    };
    expect(problemsOf({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey })).toBe("");
    expect(problemsOf({ VAPID_PUBLIC_KEY: pair.publicKey })).toMatch(/VAPID_PRIVATE_KEY.*go together/);
    expect(problemsOf({ VAPID_PRIVATE_KEY: pair.privateKey })).toMatch(/VAPID_PRIVATE_KEY.*go together/);
    expect(
      problemsOf({ VAPID_PUBLIC_KEY: pair.publicKey.slice(1), VAPID_PRIVATE_KEY: pair.privateKey }),
    ).toMatch(/VAPID_PUBLIC_KEY/);
    expect(
      problemsOf({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: `${pair.privateKey}=` }),
    ).toMatch(/VAPID_PRIVATE_KEY/);
    expect(problemsOf({ VAPID_SUBJECT: "mailto:ops@example.com" })).toBe("");
    expect(problemsOf({ VAPID_SUBJECT: "https://taskmint.example" })).toBe("");
    expect(problemsOf({ VAPID_SUBJECT: "http://taskmint.example" })).toMatch(/VAPID_SUBJECT/);
    expect(problemsOf({ VAPID_SUBJECT: "ops@example.com" })).toMatch(/VAPID_SUBJECT/);
  });

  it("is VAPID_PUBLIC_KEY when the environment sets the pair, and signs with it", async () => {
    const pair = webPush.generateVAPIDKeys();
    const configured = await startTestApp({
      joining: ctx.handle,
      env: {
        VAPID_PUBLIC_KEY: pair.publicKey,
        VAPID_PRIVATE_KEY: pair.privateKey,
        VAPID_SUBJECT: "mailto:ops@example.com",
        JOB_POLL_MS: "0",
      },
    });
    try {
      const worker = await registerUser(configured.app, "worker");
      const answer = await configured.app.inject({
        method: "GET",
        url: "/api/push/public-key",
        headers: { cookie: worker.cookie },
      });
      expect(answer.json()).toEqual({ key: pair.publicKey });
      const device = await subscribed(worker);
      await queuePush(configured.db, { userId: worker.user.id, payload: payloadFor("env"), now: new Date() });
      await configured.app.runJobs();
      const pushes = receiver.pushesTo(device);
      expect(pushes).toHaveLength(1);
      expect(receiver.check(pushes[0]!, device)).toMatchObject({
        signedWith: pair.publicKey,
        subject: "mailto:ops@example.com",
      });
      // The kept pair is untouched: the servers without the variables still sign with it.
      expect((await ctx.db.select().from(vapidKeys)).map((row) => row.publicKey)).not.toContain(
        pair.publicKey,
      );
    } finally {
      await configured.close();
    }
  });
});

describe("a push", () => {
  it("reaches each of the user's devices encrypted (aes128gcm) and VAPID-signed, and no one else's", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "worker");
    const phone = await subscribed(worker);
    const laptop = await subscribed(worker);
    const othersPhone = await subscribed(other);
    const payload = payloadFor("saved-search-42");

    await push(worker, payload);

    const key = await publicKey(worker);
    for (const device of [phone, laptop]) {
      const pushes = receiver.pushesTo(device);
      expect(pushes).toHaveLength(1);
      const checked = receiver.check(pushes[0]!, device);
      expect(checked).toEqual({ signedWith: key, subject: "mailto:no-reply@taskmint.local", payload });
      expect(pushes[0]!.headers).toMatchObject({ ttl: "3600", urgency: "high", topic: "saved-search-42" });
    }
    expect(receiver.pushesTo(othersPhone)).toHaveLength(0);
  });

  it("carries no topic when the tag is not one a push service takes", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const phone = await subscribed(worker);
    await push(worker, payloadFor("saved search: review"));
    const [received] = receiver.pushesTo(phone);
    expect(received!.headers.topic).toBeUndefined();
    expect(receiver.check(received!, phone).payload).toEqual(payloadFor("saved search: review"));
  });

  it("that a push service answers 410 or 404 removes that device only", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "worker");
    const gone = await subscribed(worker);
    const unknown = await subscribed(worker);
    const kept = await subscribed(worker);
    const othersPhone = await subscribed(other);
    receiver.answer(gone, 410);
    receiver.answer(unknown, 404);

    await push(worker);

    expect(receiver.pushesTo(gone)).toHaveLength(1);
    expect(receiver.pushesTo(unknown)).toHaveLength(1);
    expect(await rowsOf(gone.endpoint)).toHaveLength(0);
    expect(await rowsOf(unknown.endpoint)).toHaveLength(0);
    expect((await devicesOf(worker)).map((row) => row.endpoint)).toEqual([kept.endpoint]);
    expect(receiver.pushesTo(kept)).toHaveLength(1);
    expect(await rowsOf(othersPhone.endpoint)).toHaveLength(1);
    expect(receiver.pushesTo(othersPhone)).toHaveLength(0);
  });

  it("that a push service fails (5xx, 429, no answer) is retried for that device only, with the queue's back-off", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const failing = await subscribed(worker);
    const fine = await subscribed(worker);
    receiver.answer(failing, 503);
    await ctx.app.runJobs();

    await push(worker);
    expect(receiver.pushesTo(failing)).toHaveLength(1);
    expect(receiver.pushesTo(fine)).toHaveLength(1);
    const retryJobs = async () =>
      (await ctx.db.select().from(jobs).where(eq(jobs.kind, PUSH_RETRY_JOB))).filter(
        (job) => (job.payload as { endpoint: string }).endpoint === failing.endpoint,
      );
    const [queued] = await retryJobs();
    expect(queued!.runAt.getTime() - clock.now().getTime()).toBe(30_000);

    // Not yet due: nothing is sent.
    clock.advanceMs(29_999);
    await ctx.app.runJobs();
    expect(receiver.pushesTo(failing)).toHaveLength(1);

    // Due; the push service is busy: the job waits the queue's next step.
    receiver.answer(failing, 429);
    clock.advanceMs(1);
    await ctx.app.runJobs();
    expect(receiver.pushesTo(failing)).toHaveLength(2);
    const [again] = await retryJobs();
    expect(again!.attempts).toBe(1);
    expect(again!.runAt.getTime() - clock.now().getTime()).toBe(120_000);

    receiver.answer(failing, 201);
    clock.advanceMs(120_000);
    await ctx.app.runJobs();
    const pushes = receiver.pushesTo(failing);
    expect(pushes).toHaveLength(3);
    expect(receiver.check(pushes[2]!, failing).payload).toEqual(payloadFor("search-1"));
    expect(await retryJobs()).toHaveLength(0);
    // The device that had it the first time never had it again.
    expect(receiver.pushesTo(fine)).toHaveLength(1);
  });

  it("skips a device no push can be encrypted for, and the user's other devices still get theirs", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const fine = await subscribed(worker);
    const [fineRow] = await rowsOf(fine.endpoint);
    // Kept before its keys were checked (a row the routes would refuse): p256dh is no P-256 key.
    const broken = { ...fineRow!, endpoint: `${receiver.origin}/push/broken`, p256dh: "BAAA" };
    await ctx.db.insert(pushSubscriptions).values(broken);

    await push(worker);

    expect(receiver.pushesTo(fine)).toHaveLength(1);
    expect(receiver.received.filter((received) => received.path === "/push/broken")).toHaveLength(0);
    const retries = await ctx.db.select().from(jobs).where(eq(jobs.kind, PUSH_RETRY_JOB));
    expect(
      retries.filter((job) => (job.payload as { endpoint: string }).endpoint === broken.endpoint),
    ).toHaveLength(0);
  });

  it("to a device whose push service does not answer at all is retried, and the others still get theirs", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const fine = await subscribed(worker);
    // Nothing listens on port 9 (discard) of this machine: the connection is refused.
    const dead = { ...receiver.newDevice(), endpoint: "http://127.0.0.1:9/push/dead" };
    expect((await subscribe(worker, dead)).statusCode).toBe(201);

    await push(worker);

    expect(receiver.pushesTo(fine)).toHaveLength(1);
    const retries = (await ctx.db.select().from(jobs).where(eq(jobs.kind, PUSH_RETRY_JOB))).filter(
      (job) => (job.payload as { endpoint: string }).endpoint === dead.endpoint,
    );
    expect(retries).toHaveLength(1);
    expect(await rowsOf(dead.endpoint)).toHaveLength(1);
    await ctx.db.delete(jobs).where(eq(jobs.id, retries[0]!.id));
  });
});

describe("push subscriptions", () => {
  it("keep one row per endpoint: posted again it is renewed, or moves to the account now signed in", async () => {
    const first = await registerUser(ctx.app, "worker");
    const second = await registerUser(ctx.app, "worker");
    const phone = await subscribed(first);
    clock.advanceMs(1_000);
    const renewed = await subscribe(first, phone);
    expect(renewed.statusCode).toBe(201);
    expect(renewed.json()).toEqual({ endpoint: phone.endpoint, created_at: clock.now().toISOString() });
    expect(await rowsOf(phone.endpoint)).toHaveLength(1);

    expect((await subscribe(second, phone)).statusCode).toBe(201);
    const rows = await rowsOf(phone.endpoint);
    expect(rows.map((row) => row.userId)).toEqual([second.user.id]);

    await push(first);
    expect(receiver.pushesTo(phone)).toHaveLength(0);
    await push(second);
    expect(receiver.pushesTo(phone)).toHaveLength(1);
  });

  it(`are at most ${MAX_PUSH_DEVICES} per user: the next drops the oldest`, async () => {
    const worker = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "worker");
    const othersPhone = await subscribed(other);
    const devices: TestDevice[] = [];
    for (let n = 0; n < MAX_PUSH_DEVICES; n += 1) {
      clock.advanceMs(1);
      devices.push(await subscribed(worker));
    }
    expect(await devicesOf(worker)).toHaveLength(MAX_PUSH_DEVICES);
    clock.advanceMs(1);
    devices.push(await subscribed(worker));
    const kept = (await devicesOf(worker)).map((row) => row.endpoint).sort();
    expect(kept).toEqual(
      devices
        .slice(1)
        .map((device) => device.endpoint)
        .sort(),
    );
    expect(await rowsOf(othersPhone.endpoint)).toHaveLength(1);
  });

  it("are removed with their session when it signs out, and the user's other session keeps its own", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "worker");
    const signedIn = await signIn(ctx.app, worker.email, worker.password);
    expect(signedIn.statusCode).toBe(200);
    const secondSession = sessionCookie(signedIn);
    const phone = await subscribed(worker);
    const laptop = await subscribed(worker, secondSession);
    const othersPhone = await subscribed(other);

    const signedOut = await call("POST", "/api/auth/sign-out", worker.cookie, {});
    expect(signedOut.statusCode).toBe(200);

    expect(await rowsOf(phone.endpoint)).toHaveLength(0);
    expect(await rowsOf(laptop.endpoint)).toHaveLength(1);
    expect(await rowsOf(othersPhone.endpoint)).toHaveLength(1);
  });

  it("get no push once their session has expired, while the user's live session still does", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const signedIn = await signIn(ctx.app, worker.email, worker.password);
    const phone = await subscribed(worker);
    const laptop = await subscribed(worker, sessionCookie(signedIn));
    const [phoneRow] = await rowsOf(phone.endpoint);
    await ctx.db.update(sessions).set({ expiresAt: clock.now() }).where(eq(sessions.id, phoneRow!.sessionId));

    await push(worker);

    expect(receiver.pushesTo(phone)).toHaveLength(0);
    expect(receiver.pushesTo(laptop)).toHaveLength(1);
  });

  it("are deleted by their own user only; anything else answers 204 and changes nothing", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "worker");
    const phone = await subscribed(worker);
    const othersPhone = await subscribed(other);
    const remove = (endpoint: string) =>
      call("DELETE", "/api/me/push-subscriptions", worker.cookie, { endpoint });

    for (const endpoint of [othersPhone.endpoint, "not a url", "https://push.example.com/a\u0000b", ""])
      expect((await remove(endpoint)).statusCode, endpoint).toBe(204);
    expect(await rowsOf(othersPhone.endpoint)).toHaveLength(1);
    expect(await rowsOf(phone.endpoint)).toHaveLength(1);

    const unknownField = await call("DELETE", "/api/me/push-subscriptions", worker.cookie, {
      endpoint: phone.endpoint,
      all: true,
    });
    expect(unknownField.statusCode).toBe(400);
    expect(await rowsOf(phone.endpoint)).toHaveLength(1);

    expect((await remove(phone.endpoint)).statusCode).toBe(204);
    expect(await rowsOf(phone.endpoint)).toHaveLength(0);
    expect(await rowsOf(othersPhone.endpoint)).toHaveLength(1);
  });

  it("refuse with 400 an endpoint a push may not go to and keys no push can be encrypted for", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const good = receiver.newDevice();
    const notOnCurve = Buffer.alloc(65, 7);
    notOnCurve[0] = 4;
    const cases: [string, object][] = [
      ["http to a public address", { endpoint: "http://push.example.com/x", keys: good.keys }],
      ["http to a private address", { endpoint: "http://10.0.0.1/x", keys: good.keys }],
      ["not http", { endpoint: "ftp://127.0.0.1/x", keys: good.keys }],
      ["a user name in the URL", { endpoint: "https://a:b@push.example.com/x", keys: good.keys }],
      ["not a URL", { endpoint: "push service", keys: good.keys }],
      ["a NUL byte", { endpoint: `${good.endpoint}\u0000x`, keys: good.keys }],
      [
        "2,001 characters",
        { endpoint: `https://push.example.com/${"a".repeat(2001 - 25)}`, keys: good.keys },
      ],
      [
        "over 2,000 once escaped",
        { endpoint: `https://push.example.com/${"é".repeat(400)}`, keys: good.keys },
      ],
      ["p256dh not base64url", { endpoint: good.endpoint, keys: { ...good.keys, p256dh: "abc+/def" } }],
      ["p256dh with a NUL", { endpoint: good.endpoint, keys: { ...good.keys, p256dh: "abc\u0000" } }],
      ["p256dh too short", { endpoint: good.endpoint, keys: { ...good.keys, p256dh: "BAAA" } }],
      [
        "p256dh not on the curve",
        { endpoint: good.endpoint, keys: { ...good.keys, p256dh: notOnCurve.toString("base64url") } },
      ],
      [
        "auth of 15 bytes",
        { endpoint: good.endpoint, keys: { ...good.keys, auth: Buffer.alloc(15).toString("base64url") } },
      ],
      ["no keys", { endpoint: good.endpoint }],
      ["an unknown field", { endpoint: good.endpoint, keys: good.keys, device: "phone" }],
      ["an unknown key", { endpoint: good.endpoint, keys: { ...good.keys, extra: "x" } }],
    ];
    for (const [name, body] of cases) {
      const response = await call("POST", "/api/me/push-subscriptions", worker.cookie, body);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
      expect(response.json<{ error: { code: string } }>().error.code, name).toBe("VALIDATION");
    }
    expect(await devicesOf(worker)).toHaveLength(0);

    // Both sides: 2,000 characters, http to this machine, and a browser's own JSON are taken.
    const longest = `${good.endpoint}/${"a".repeat(2000 - good.endpoint.length - 1)}`;
    expect(longest).toHaveLength(2000);
    const taken = await call("POST", "/api/me/push-subscriptions", worker.cookie, {
      endpoint: longest,
      expirationTime: null,
      keys: good.keys,
    });
    expect(taken.statusCode, taken.body).toBe(201);
    expect(await devicesOf(worker)).toHaveLength(1);
  });
});

describe("push subscriptions in production", () => {
  it("refuse every loopback or internal address, http or https, and take a public https one", async () => {
    const production = await startTestApp({
      joining: ctx.handle,
      env: { NODE_ENV: "production", AUTH_SECRET: "test-secret-test-secret-test-secret!", JOB_POLL_MS: "0" },
    });
    try {
      const worker = await registerUser(production.app, "worker");
      const keys = receiver.newDevice().keys;
      const post = (endpoint: string) =>
        production.app.inject({
          method: "POST",
          url: "/api/me/push-subscriptions",
          headers: { cookie: worker.cookie },
          payload: { endpoint, keys },
        });
      for (const endpoint of [
        `${receiver.origin}/push/x`,
        "https://127.0.0.1/push/x",
        "https://localhost/push/x",
        "https://10.1.2.3/push/x",
        "https://[::1]/push/x",
      ]) {
        const refused = await post(endpoint);
        expect(refused.statusCode, endpoint).toBe(400);
        expect(refused.json<{ error: { details: Record<string, string> } }>().error.details).toHaveProperty(
          "endpoint",
        );
      }
      expect(await devicesOf(worker)).toHaveLength(0);
      expect((await post("https://push.example.com/send/abc")).statusCode).toBe(201);
      const [kept] = await devicesOf(worker);
      expect(kept!.endpoint).toBe("https://push.example.com/send/abc");

      // A loopback device kept before (a server run outside production): no push goes to it.
      const local = receiver.newDevice();
      await ctx.db
        .update(pushSubscriptions)
        .set({ endpoint: local.endpoint, ...local.keys })
        .where(eq(pushSubscriptions.endpoint, kept!.endpoint));
      await queuePush(production.db, {
        userId: worker.user.id,
        payload: payloadFor("prod"),
        now: new Date(),
      });
      await production.app.runJobs();
      expect(receiver.pushesTo(local)).toHaveLength(0);
      // The job ran (and is done), not merely left waiting.
      const pushJobs = await ctx.db.select().from(jobs).where(eq(jobs.kind, "push"));
      expect(
        pushJobs.filter((job) => (job.payload as { userId: string }).userId === worker.user.id),
      ).toHaveLength(0);
      const retries = await ctx.db.select().from(jobs).where(eq(jobs.kind, PUSH_RETRY_JOB));
      expect(
        retries.filter((job) => (job.payload as { endpoint: string }).endpoint === local.endpoint),
      ).toHaveLength(0);
    } finally {
      await production.close();
    }
  });
});

describe("quiet hours", () => {
  const hoursOf = async (user: RegisteredUser) =>
    (await call("GET", "/api/me/quiet-hours", user.cookie)).json<QuietHours>();
  const setHours = (user: RegisteredUser, hours: object) =>
    call("PUT", "/api/me/quiet-hours", user.cookie, hours);
  /** Moves the file's clock to `iso` (either way). */
  const at = (iso: string) => clock.advanceMs(new Date(iso).getTime() - clock.now().getTime());

  it("are off by default, 22:00 to 07:00 in Dhaka, and refuse what is not a window", async () => {
    const worker = await registerUser(ctx.app, "worker");
    expect(await hoursOf(worker)).toEqual({
      enabled: false,
      from: "22:00",
      to: "07:00",
      time_zone: "Asia/Dhaka",
    });
    const set = { enabled: true, from: "23:30", to: "06:15", time_zone: "Europe/Berlin" };
    const saved = await setHours(worker, set);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(set);
    for (const bad of [
      { ...set, to: "23:30" },
      { ...set, from: "24:00" },
      { ...set, from: "7:00" },
      { ...set, time_zone: "Mars/Olympus" },
      { ...set, time_zone: "Asia/Dhaka\u0000" },
      { ...set, snooze: true },
      { enabled: true },
    ]) {
      const response = await setHours(worker, bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await hoursOf(worker)).toEqual(set);
    // Off, a window of no length is fine (it says nothing).
    expect((await setHours(worker, { ...set, enabled: false, to: "23:30" })).statusCode).toBe(200);
  });

  it("hold a user's pushes from `from` up to `to` in their time zone, across midnight", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const phone = await subscribed(worker);
    expect(
      (await setHours(worker, { enabled: true, from: "22:00", to: "07:00", time_zone: "Asia/Dhaka" }))
        .statusCode,
    ).toBe(200);
    // Dhaka is UTC+6 all year.
    const expected: [string, number][] = [
      ["2026-11-27T15:59:00Z", 1], // 21:59 sends
      ["2026-11-27T16:00:00Z", 0], // 22:00 does not
      ["2026-11-28T00:59:00Z", 0], // 06:59 does not
      ["2026-11-28T01:00:00Z", 1], // 07:00 sends
    ];
    for (const [time, count] of expected) {
      at(time);
      const before = receiver.pushesTo(phone).length;
      await push(worker);
      expect(receiver.pushesTo(phone).length - before, time).toBe(count);
    }
  });

  it("hold pushes in a window within one day, and only when on", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const phone = await subscribed(worker);
    const lunch = { enabled: true, from: "13:00", to: "14:00", time_zone: "Europe/London" };
    expect((await setHours(worker, lunch)).statusCode).toBe(200);
    // London keeps GMT (UTC+0) in November.
    const expected: [string, number][] = [
      ["2026-11-27T12:59:00Z", 1],
      ["2026-11-27T13:00:00Z", 0],
      ["2026-11-27T13:59:00Z", 0],
      ["2026-11-27T14:00:00Z", 1],
    ];
    for (const [time, count] of expected) {
      at(time);
      const before = receiver.pushesTo(phone).length;
      await push(worker);
      expect(receiver.pushesTo(phone).length - before, time).toBe(count);
    }
    expect((await setHours(worker, { ...lunch, enabled: false })).statusCode).toBe(200);
    at("2026-11-27T13:30:00Z");
    const before = receiver.pushesTo(phone).length;
    await push(worker);
    expect(receiver.pushesTo(phone).length - before).toBe(1);
  });

  it("of one user hold no one else's pushes", async () => {
    const quiet = await registerUser(ctx.app, "worker");
    const awake = await registerUser(ctx.app, "worker");
    const quietPhone = await subscribed(quiet);
    const awakePhone = await subscribed(awake);
    expect(
      (await setHours(quiet, { enabled: true, from: "00:00", to: "23:59", time_zone: "UTC" })).statusCode,
    ).toBe(200);
    at("2026-11-27T12:00:00Z");
    await push(quiet);
    await push(awake);
    expect(receiver.pushesTo(quietPhone)).toHaveLength(0);
    expect(receiver.pushesTo(awakePhone)).toHaveLength(1);
    expect(
      await ctx.db
        .select()
        .from(pushSubscriptions)
        .where(
          and(
            eq(pushSubscriptions.userId, quiet.user.id),
            eq(pushSubscriptions.endpoint, quietPhone.endpoint),
          ),
        ),
    ).toHaveLength(1);
  });
});
