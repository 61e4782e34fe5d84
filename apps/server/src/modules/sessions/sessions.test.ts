import { describe, expect, it } from "vitest";
import type { ActiveSession } from "@taskmint/shared";
import { registerUser, sessionCookie, testAppPerFile } from "../../test/harness.ts";
import { describeDevice, deviceName } from "./device.ts";
import { SESSION_LIST_LIMIT } from "./service.ts";

const ctx = testAppPerFile();

const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

const signInFrom = async (user: { email: string; password: string }, userAgent: string, ip: string) => {
  const answer = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { "user-agent": userAgent },
    remoteAddress: ip,
    payload: { email: user.email, password: user.password },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return sessionCookie(answer);
};
const list = async (cookie: string) => {
  const answer = await ctx.app.inject({ method: "GET", url: "/api/me/sessions", headers: { cookie } });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<ActiveSession[]>();
};
const end = (cookie: string, id: string) =>
  ctx.app.inject({ method: "DELETE", url: `/api/me/sessions/${id}`, headers: { cookie } });
const me = (cookie: string) => ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });

describe("active sessions", () => {
  it("lists the user's own sessions, most recently used first, marking this one", async () => {
    const user = await registerUser(ctx.app, "worker");
    await registerUser(ctx.app, "worker"); // someone else's sessions never show
    const phone = await signInFrom(user, ANDROID_CHROME, "203.0.113.7");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const laptop = await signInFrom(user, WINDOWS_FIREFOX, "198.51.100.2");

    const seen = await list(phone);
    expect(seen).toHaveLength(3);
    expect(seen.map((session) => session.device)).toEqual([
      "Firefox on Windows",
      "Chrome on Android",
      "Unknown device",
    ]);
    expect(seen.map((session) => session.ip)).toEqual(["198.51.100.2", "203.0.113.7", "127.0.0.1"]);
    // The address fastify saw, not one the client wrote.
    const spoofed = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { "x-forwarded-for": "192.0.2.99" },
      remoteAddress: "198.51.100.9",
      payload: { email: user.email, password: user.password },
    });
    expect((await list(sessionCookie(spoofed)))[0]).toMatchObject({ ip: "198.51.100.9", current: true });
    expect(seen.map((session) => session.current)).toEqual([false, true, false]);
    for (const session of seen) expect(Date.parse(session.last_seen)).toBeGreaterThan(Date.now() - 60_000);
    // Each tells its device apart: browser, system, kind, and when it began.
    expect(seen[1]).toMatchObject({ browser: "Chrome 126", system: "Android 14", kind: "phone" });
    expect(seen[0]).toMatchObject({ browser: "Firefox 128", system: "Windows", kind: "computer" });
    for (const session of seen)
      expect(Date.parse(session.first_seen)).toBeLessThanOrEqual(Date.parse(session.last_seen));
    expect((await list(laptop)).map((session) => session.current)).toEqual([false, true, false, false]);
  });

  it("ends one of them: that cookie is signed out, the others stay signed in", async () => {
    const user = await registerUser(ctx.app, "buyer");
    const phone = await signInFrom(user, ANDROID_CHROME, "203.0.113.7");
    const phoneId = (await list(phone)).find((session) => session.current)!.id;

    const ended = await end(user.cookie, phoneId);
    expect(ended.statusCode, ended.body).toBe(204);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(user.cookie)).statusCode).toBe(200);
    expect(await list(user.cookie)).toHaveLength(1);

    const again = await end(user.cookie, phoneId);
    expect(again.statusCode).toBe(404);
  });

  it("answers another user's session as an unknown one, and leaves it alone", async () => {
    const owner = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "buyer");
    const [ownersSession] = await list(owner.cookie);

    const refused = await end(other.cookie, ownersSession!.id);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: { code: "NOT_FOUND", message: "Unknown session" } });
    expect((await end(other.cookie, "00000000-0000-4000-8000-000000000000")).json()).toEqual(refused.json());
    expect((await me(owner.cookie)).statusCode).toBe(200);
    expect((await end(owner.cookie, "not-an-id")).json()).toMatchObject({ error: { code: "VALIDATION" } });
  });

  it("needs a session", async () => {
    expect((await ctx.app.inject({ method: "GET", url: "/api/me/sessions" })).statusCode).toBe(401);
  });

  it(`shows at most ${SESSION_LIST_LIMIT}`, async () => {
    const user = await registerUser(ctx.app, "worker");
    for (let index = 0; index < SESSION_LIST_LIMIT; index += 1)
      await signInFrom(user, WINDOWS_FIREFOX, "198.51.100.2");
    const seen = await list(user.cookie);
    expect(seen).toHaveLength(SESSION_LIST_LIMIT);
    // The registration's session is the oldest: it falls off the list, yet still works.
    expect(seen.some((session) => session.current)).toBe(false);
    expect((await me(user.cookie)).statusCode).toBe(200);
  });
});

describe("device names", () => {
  it.each([
    [ANDROID_CHROME, "Chrome on Android"],
    [WINDOWS_FIREFOX, "Firefox on Windows"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari on iOS",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Edge on macOS",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0 Safari/537.36",
      "Chrome on Linux",
    ],
    ["curl/8.5.0", "Unknown device"],
    [null, "Unknown device"],
  ])("reads %s as %s", (userAgent, expected) => {
    expect(deviceName(userAgent)).toBe(expected);
  });
});

describe("device details", () => {
  it.each([
    [ANDROID_CHROME, { browser: "Chrome 126", system: "Android 14", kind: "phone" }],
    [WINDOWS_FIREFOX, { browser: "Firefox 128", system: "Windows", kind: "computer" }],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      { browser: "Safari 17", system: "iOS 17", kind: "phone" },
    ],
    [
      "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
      { browser: "Safari 16", system: "iOS 16", kind: "tablet" },
    ],
    [
      "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36",
      { browser: "Chrome 125", system: "Android 13", kind: "tablet" },
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      { browser: "Edge 126", system: "macOS", kind: "computer" },
    ],
    ["curl/8.5.0", { browser: null, system: null, kind: null }],
    [null, { browser: null, system: null, kind: null }],
  ])("reads %s", (userAgent, expected) => {
    expect(describeDevice(userAgent)).toEqual(expected);
  });
});
