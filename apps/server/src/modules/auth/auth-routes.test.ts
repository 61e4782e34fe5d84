import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { users, verifications } from "../../db/schema/index.ts";
import {
  multipart,
  registerUser,
  sessionCookie,
  signIn,
  testAppPerFile,
  testImage,
  type RegisteredUser,
} from "../../test/harness.ts";
import { RESET_MAILS_PER_EMAIL_PER_HOUR } from "./routes.ts";

/** One request over a real socket with the path exactly as given: no client folds its dot segments. */
function rawRequest(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const { hostname, port } = new URL(base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: hostname,
        port,
        method,
        path,
        headers: { ...(payload ? { "content-type": "application/json" } : {}), ...headers },
      },
      (incoming) => {
        let text = "";
        incoming.setEncoding("utf8");
        incoming.on("data", (chunk: string) => (text += chunk));
        incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, body: text }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

const SIGN_IN_SPELLINGS = [
  "/api/auth/%2e/sign-in/email",
  "/api/auth/%2E/sign-in/email",
  "/api/auth/./sign-in/email",
  "/api/auth/x/../sign-in/email",
  "/api/auth/x/%2e%2e/sign-in/email",
  "/api/auth//sign-in/email",
  "/api/auth/sign-in%2femail",
  "/api/auth/sign-in/email/.",
  "/api/auth\\sign-in/email",
  "/api/auth/sign-in/email%00",
];

describe("every spelling of sign-in passes the same limit", () => {
  let base: string;
  const ctx = testAppPerFile({ env: { AUTH_RATE_LIMIT: "3" } });
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });

  it.each(SIGN_IN_SPELLINGS)(
    "refuses %s with 400 before any route or the auth library sees it",
    async (path) => {
      const answer = await rawRequest(base, "POST", path, {
        email: "someone@example.com",
        password: "Wrong123",
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "VALIDATION" } });
    },
  );

  it("signs nobody in through a non-canonical path, even with the right password", async () => {
    const user = await registerUser(ctx.app, "worker");
    for (const path of SIGN_IN_SPELLINGS) {
      const answer = await rawRequest(base, "POST", path, { email: user.email, password: user.password });
      expect(answer.status).toBe(400);
    }
  });

  it("limits sign-in attempts per address", async () => {
    const user = await registerUser(ctx.app, "worker");
    const attempt = (ip: string) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        remoteAddress: ip,
        payload: { email: `other-${ip}@example.com`, password: "Wrong123" },
      });
    for (let i = 0; i < 3; i += 1) expect((await attempt("10.1.0.1")).statusCode).toBe(401);
    expect((await attempt("10.1.0.1")).statusCode).toBe(429);
    // Even the right password waits out the address's minute.
    const right = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      remoteAddress: "10.1.0.1",
      payload: { email: user.email, password: user.password },
    });
    expect(right.statusCode).toBe(429);
  });

  it("limits failed sign-ins per account, and one address cannot lock the owner out", async () => {
    const user = await registerUser(ctx.app, "worker");
    const attempt = (ip: string, password = "Wrong123") =>
      ctx.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        remoteAddress: ip,
        payload: { email: user.email, password },
      });
    // One address spends its failures on this account (3 in 15 minutes) ...
    for (let i = 0; i < 3; i += 1) expect((await attempt("10.3.0.1")).statusCode).toBe(401);
    // ... and waits, though its per-minute allowance is not spent,
    expect((await attempt("10.3.0.1")).statusCode).toBe(429);
    // while the owner, elsewhere, signs in; successes count against nothing.
    for (let i = 0; i < 2; i += 1) expect((await attempt("10.3.9.9", user.password)).statusCode).toBe(200);

    // Guessing spread over many addresses: 30 failures an hour for the account (10 x 3), then 429 for everyone.
    const statuses = [];
    for (let address = 2; address <= 10; address += 1)
      for (let i = 0; i < 3; i += 1) statuses.push((await attempt(`10.3.0.${address}`)).statusCode);
    expect(statuses).toEqual(Array<number>(27).fill(401));
    const spent = await attempt("10.3.1.1");
    expect(spent.statusCode).toBe(429);
    expect(spent.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
    expect((await attempt("10.3.1.2", user.password)).statusCode).toBe(429);
  });
});

describe("password reset requests are limited per address and per mailbox", () => {
  const ctx = testAppPerFile({ env: { AUTH_RATE_LIMIT: "10" } });

  const ask = (email: string, ip: string) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      remoteAddress: ip,
      payload: { email },
    });

  it(`sends at most ${RESET_MAILS_PER_EMAIL_PER_HOUR} requests an hour for one address, from however many clients`, async () => {
    const statuses = [];
    for (let i = 0; i < RESET_MAILS_PER_EMAIL_PER_HOUR + 2; i += 1)
      statuses.push((await ask("victim@example.com", `10.2.0.${i + 1}`)).statusCode);
    expect(statuses).toEqual([...Array<number>(RESET_MAILS_PER_EMAIL_PER_HOUR).fill(200), 429, 429]);
    const refused = await ask("victim@example.com", "10.2.0.99");
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
  });

  it("limits one client asking for many mailboxes", async () => {
    const statuses = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await ask(`box${i}@example.com`, "10.2.1.1")).statusCode);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
  });
});

describe("the auth library's routes", () => {
  const ctx = testAppPerFile();

  // Everything the library serves that the app does not use (docs/decisions/009).
  const CLOSED = [
    ["POST", "/api/auth/update-user"],
    ["POST", "/api/auth/sign-up/email"],
    ["GET", "/api/auth/get-session"],
    ["GET", "/api/auth/list-sessions"],
    ["GET", "/api/auth/list-accounts"],
    ["GET", "/api/auth/account-info"],
    ["POST", "/api/auth/change-email"],
    ["POST", "/api/auth/delete-user"],
    ["GET", "/api/auth/delete-user/callback"],
    ["POST", "/api/auth/revoke-session"],
    ["POST", "/api/auth/revoke-sessions"],
    ["POST", "/api/auth/revoke-other-sessions"],
    ["POST", "/api/auth/update-session"],
    ["POST", "/api/auth/link-social"],
    ["POST", "/api/auth/unlink-account"],
    ["POST", "/api/auth/get-access-token"],
    ["POST", "/api/auth/refresh-token"],
    ["POST", "/api/auth/reset-password"],
    ["POST", "/api/auth/send-verification-email"],
    ["POST", "/api/auth/verify-password"],
    ["GET", "/api/auth/ok"],
    ["GET", "/api/auth/error"],
  ] as const;

  let user: RegisteredUser;
  beforeAll(async () => {
    user = await registerUser(ctx.app, "worker");
  });

  it.each(CLOSED)("%s %s answers 404 and changes nothing", async (method, url) => {
    const answer = await ctx.app.inject({
      method,
      url,
      headers: { cookie: user.cookie },
      ...(method === "POST"
        ? {
            payload: {
              name: "x".repeat(5000),
              image: "https://evil.example/a.png",
              email: "new@example.com",
              password: "Secret12",
            },
          }
        : {}),
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
    const [row] = await ctx.db
      .select({ name: users.name, image: users.image, email: users.email })
      .from(users)
      .where(eq(users.id, user.user.id));
    expect(row).toEqual({ name: user.user.name, image: user.user.photo, email: user.email });
  });

  it("keeps the session token out of every body it answers", async () => {
    const user = await registerUser(ctx.app, "worker");
    const signedIn = await signIn(ctx.app, user.email, user.password);
    expect(signedIn.statusCode).toBe(200);
    const cookie = sessionCookie(signedIn);
    const token = decodeURIComponent(cookie.split("=")[1] ?? "").split(".")[0] ?? "";
    expect(token.length).toBeGreaterThan(10);
    expect(signedIn.body).not.toContain(token);
    const changed = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/change-password",
      headers: { cookie },
      payload: { currentPassword: user.password, newPassword: "Changed12" },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).not.toHaveProperty("token");
    expect(changed.body).not.toMatch(/"token"/);
  });

  it("refuses unknown fields and foreign return addresses on the routes it keeps", async () => {
    const extra = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: "a@example.com", password: "x", role: "admin" },
    });
    expect(extra.statusCode).toBe(400);
    const foreign = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/social",
      payload: { provider: "google", callbackURL: "https://evil.example/steal" },
    });
    expect(foreign.statusCode).toBe(400);
    const resetElsewhere = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      payload: { email: "a@example.com", redirectTo: "https://evil.example/reset" },
    });
    expect(resetElsewhere.statusCode).toBe(400);
    // The mailed link's return address is checked by the app, not only by the library (which skips it in tests).
    const linkElsewhere = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/reset-password/abc?callbackURL=https://evil.example/",
    });
    expect(linkElsewhere.statusCode).toBe(400);
    expect(linkElsewhere.headers.location).toBeUndefined();
    const notAnEmail = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      payload: { email: "x" },
    });
    expect(notAnEmail.statusCode).toBe(400);
  });

  it("ends every other session and voids reset links when the password changes, whatever the client asks", async () => {
    const user = await registerUser(ctx.app, "worker");
    const other = sessionCookie(await signIn(ctx.app, user.email, user.password));
    const asked = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      payload: { email: user.email },
    });
    expect(asked.statusCode).toBe(200);
    await expect
      .poll(
        async () =>
          (await ctx.db.select().from(verifications).where(eq(verifications.value, user.user.id))).length,
      )
      .toBe(1);

    const changed = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/change-password",
      headers: { cookie: user.cookie },
      payload: { currentPassword: user.password, newPassword: "Changed12", revokeOtherSessions: false },
    });
    expect(changed.statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: other } })).statusCode,
    ).toBe(401);
    expect(
      (await ctx.db.select().from(verifications).where(eq(verifications.value, user.user.id))).length,
    ).toBe(0);
  });
});

describe("account-existence oracles", () => {
  const ctx = testAppPerFile();

  it("checks the photo before it looks the email up: a junk photo gets the same answer for a taken and a free address", async () => {
    const taken = await registerUser(ctx.app, "worker");
    const attempt = async (email: string) => {
      const body = await multipart({
        name: "Probe",
        role: "worker",
        email,
        password: "Secret12",
        photo: { bytes: Buffer.from("not an image"), filename: "a.png", type: "image/png" },
      });
      const answer = await ctx.app.inject({ method: "POST", url: "/api/register", ...body });
      return { status: answer.statusCode, code: answer.json<{ error: { code: string } }>().error.code };
    };
    const free = await attempt("free-address@example.com");
    expect(free.status).toBe(415);
    expect(await attempt(taken.email)).toEqual(free);
    // With a real photo the taken address is still refused, as the spec says.
    const body = await multipart({
      name: "Again",
      role: "worker",
      email: taken.email,
      password: "Secret12",
      photo: { bytes: await testImage(), filename: "a.png", type: "image/png" },
    });
    expect((await ctx.app.inject({ method: "POST", url: "/api/register", ...body })).json()).toMatchObject({
      error: { code: "EMAIL_TAKEN" },
    });
  });

  it("answers a reset request before looking the account up: same body for a known and an unknown address", async () => {
    const known = await registerUser(ctx.app, "worker");
    const ask = (email: string) =>
      ctx.app.inject({ method: "POST", url: "/api/auth/request-password-reset", payload: { email } });
    const [forKnown, forUnknown] = await Promise.all([ask(known.email), ask("nobody-here@example.com")]);
    expect(forKnown.statusCode).toBe(200);
    expect(forKnown.body).toBe(forUnknown.body);
  });
});
