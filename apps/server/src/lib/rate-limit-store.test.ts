import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startTestApp, testAppPerFile } from "../test/harness.ts";
import { rowsOf } from "./db-errors.ts";
import { databaseRateLimitStore, deleteEndedRateLimitWindows } from "./rate-limit-store.ts";

// Issue 38: rate limits counted in the database, shared by every server on it.

const ctx = testAppPerFile();

type Counted = { current: number; ttl: number };
const HOUR = 3_600_000;

type Call = (
  key: string,
  callback: (error: Error | null, counted?: Counted) => void,
  window: number,
  max: number,
) => void;

/** A store method's answer as a promise. */
const called = (method: Call, key: string, window: number) =>
  new Promise<Counted>((resolve, reject) =>
    method(
      key,
      (error, counted) => (counted ? resolve(counted) : reject(error ?? new Error("no count"))),
      window,
      10,
    ),
  );

function storeOf(limitName: string) {
  const Store = databaseRateLimitStore(ctx.db);
  const store = new Store({}).child({ limitName } as never) as unknown as { incr: Call; read: Call };
  return {
    incr: (key: string) => called(store.incr.bind(store), key, HOUR),
    read: (key: string) => called(store.read.bind(store), key, HOUR),
  };
}

/** Ends the window of a key now, as if its time had passed. */
const endWindow = (key: string) =>
  ctx.db.execute(
    sql`update rate_limit_counters set resets_at = now() - interval '1 millisecond' where key = ${key}`,
  );

describe("the database rate-limit store", () => {
  it("counts within a window, reads without counting, and starts again once the window has ended", async () => {
    const { incr, read } = storeOf("test counts");
    expect((await incr("10.0.0.1")).current).toBe(1);
    const second = await incr("10.0.0.1");
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(0);
    expect(second.ttl).toBeLessThanOrEqual(HOUR);
    expect(await read("10.0.0.1")).toMatchObject({ current: 2 });
    expect((await read("10.0.0.1")).current).toBe(2);
    expect(await read("10.0.0.2")).toEqual({ current: 0, ttl: 0 });

    await endWindow("test counts:10.0.0.1");
    expect(await read("10.0.0.1")).toEqual({ current: 0, ttl: 0 });
    expect((await incr("10.0.0.1")).current).toBe(1);
  });

  it("keeps two named limits apart when their keys coincide, and refuses an unnamed one", async () => {
    const signIns = storeOf("test sign-ins");
    const mails = storeOf("test mails");
    await signIns.incr("ana@example.com");
    await signIns.incr("ana@example.com");
    expect((await mails.incr("ana@example.com")).current).toBe(1);
    const Store = databaseRateLimitStore(ctx.db);
    expect(() => new Store({}).child({ routeInfo: {} } as never)).toThrow(/limitName/);
    // A route's limit is named by its route.
    expect(() =>
      new Store({}).child({ routeInfo: { method: "POST", url: "/api/x" } } as never),
    ).not.toThrow();
  });

  it("counts 20 requests at once exactly once each", async () => {
    const { incr } = storeOf("test race");
    const counts = await Promise.all(Array.from({ length: 20 }, () => incr("10.0.0.3")));
    expect(counts.map((counted) => counted.current).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
  });

  it("forgets only the windows that have ended", async () => {
    const { incr } = storeOf("test sweep");
    await incr("ended");
    await incr("running");
    await endWindow("test sweep:ended");
    expect(await deleteEndedRateLimitWindows(ctx.db)).toBe(1);
    const keys = rowsOf<{ key: string }>(
      await ctx.db.execute(sql`select key from rate_limit_counters where key like 'test sweep:%'`),
    ).map((row) => row.key);
    expect(keys).toEqual(["test sweep:running"]);
  });
});

describe("sign-in limits across two servers", () => {
  const signInFrom = (app: typeof ctx.app, ip: string) =>
    app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      remoteAddress: ip,
      payload: { email: "shared@example.com", password: "Wrong123" },
    });

  it("lets two servers on one database together allow what one allows", async () => {
    const env = { AUTH_RATE_LIMIT: "3", RATE_LIMIT_STORE: "database" };
    const one = await startTestApp({ env });
    const two = await startTestApp({ env, joining: one.handle });
    try {
      expect((await signInFrom(one.app, "10.1.0.1")).statusCode).toBe(401);
      expect((await signInFrom(two.app, "10.1.0.1")).statusCode).toBe(401);
      expect((await signInFrom(one.app, "10.1.0.1")).statusCode).toBe(401);
      expect((await signInFrom(two.app, "10.1.0.1")).statusCode).toBe(429);
      expect((await signInFrom(one.app, "10.1.0.1")).statusCode).toBe(429);
      // Another address still has its own three.
      expect((await signInFrom(two.app, "10.1.0.2")).statusCode).toBe(401);
    } finally {
      await two.close();
      await one.close();
    }
  });

  it("counts in each process with the memory store: two servers allow twice as much", async () => {
    const env = { AUTH_RATE_LIMIT: "3", RATE_LIMIT_STORE: "memory" };
    const one = await startTestApp({ env });
    const two = await startTestApp({ env, joining: one.handle });
    try {
      for (let attempt = 0; attempt < 3; attempt += 1)
        expect((await signInFrom(one.app, "10.2.0.1")).statusCode).toBe(401);
      expect((await signInFrom(one.app, "10.2.0.1")).statusCode).toBe(429);
      expect((await signInFrom(two.app, "10.2.0.1")).statusCode).toBe(401);
    } finally {
      await two.close();
      await one.close();
    }
  });
});
