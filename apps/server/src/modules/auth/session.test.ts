import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { User } from "@taskmint/shared";
import { sessions } from "../../db/schema/index.ts";
import { requireRole } from "../../plugins/auth-guard.ts";
import {
  registerUser,
  sessionCookie,
  signIn,
  signInAdmin,
  startTestApp,
  type RegisteredUser,
  testAppPerFile,
} from "../../test/harness.ts";
import { ensureAdmin } from "../users/service.ts";

// A route guarded for buyers only, as later features guard theirs.
const ctx = testAppPerFile({
  configure: (app) =>
    app.get("/api/test/buyer-only", { preHandler: requireRole("buyer") }, () => ({ ok: true })),
});
let worker: RegisteredUser;
let buyer: RegisteredUser;

beforeAll(async () => {
  worker = await registerUser(ctx.app, "worker");
  buyer = await registerUser(ctx.app, "buyer");
});

const me = (cookie?: string) =>
  ctx.app.inject({ method: "GET", url: "/api/me", headers: cookie ? { cookie } : {} });

describe("sessions", () => {
  it("signs in, shows the user, signs out", async () => {
    const signedIn = await signIn(ctx.app, worker.email, worker.password);
    expect(signedIn.statusCode).toBe(200);
    const cookie = sessionCookie(signedIn);
    const setCookie = String(signedIn.headers["set-cookie"]);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(signedIn.json()).not.toHaveProperty("token");

    const answer = await me(cookie);
    expect(answer.statusCode).toBe(200);
    expect(answer.json<{ user: User }>().user).toMatchObject({
      email: worker.email,
      role: "worker",
      coins: 10,
    });

    const signedOut = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie },
      payload: {},
    });
    expect(signedOut.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("answers a wrong password with 401 in the API's error format", async () => {
    const response = await signIn(ctx.app, worker.email, "Wrong123");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      error: { code: "UNAUTHENTICATED", message: "Invalid email or password" },
    });
  });

  it("answers an unknown email exactly as a wrong password", async () => {
    const unknown = await signIn(ctx.app, "nobody@example.com", "Wrong123");
    const wrong = await signIn(ctx.app, worker.email, "Wrong123");
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
  });

  it("refuses sign-up through the auth library: accounts come only from /api/register", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      payload: { name: "Sneaky", email: "sneaky@example.com", password: "Secret12" },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect((await signIn(ctx.app, "sneaky@example.com", "Secret12")).statusCode).toBe(401);
  });

  it("refuses a session cookie with a forged signature, an unknown token or an expired session", async () => {
    const fresh = await registerUser(ctx.app, "worker");
    const cookie = fresh.cookie;
    const [name, value] = cookie.split("=", 2) as [string, string];
    const [token] = decodeURIComponent(value).split(".");
    const forged = `${name}=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`;
    expect((await me(forged)).statusCode).toBe(401);
    expect((await me(`${name}=${encodeURIComponent(`unknown-token.${"A".repeat(43)}=`)}`)).statusCode).toBe(
      401,
    );
    expect((await me(cookie)).statusCode).toBe(200);
    await ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.token, token ?? ""));
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("extends a session used more than a day after its last extension, as the auth library does", async () => {
    const fresh = await registerUser(ctx.app, "worker");
    const [session] = await ctx.db.select().from(sessions).where(eq(sessions.userId, fresh.user.id));
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await ctx.db
      .update(sessions)
      .set({ updatedAt: twoDaysAgo, expiresAt: new Date(Date.now() + 86_400_000) })
      .where(eq(sessions.id, session?.id ?? ""));
    expect((await me(fresh.cookie)).statusCode).toBe(200);
    const [extended] = await ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, session?.id ?? ""));
    expect(extended?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  });

  it("answers /api/me with 401 for a visitor", async () => {
    expect((await me()).json()).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
  });

  it("guards a buyer route: 401 for a visitor, 403 for a worker, 200 for a buyer", async () => {
    const call = (cookie?: string) =>
      ctx.app.inject({ method: "GET", url: "/api/test/buyer-only", headers: cookie ? { cookie } : {} });
    expect((await call()).statusCode).toBe(401);
    const refused = await call(worker.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: "FORBIDDEN" } });
    expect((await call(buyer.cookie)).statusCode).toBe(200);
  });

  it("lets only admins check the ledger", async () => {
    const call = (cookie?: string) =>
      ctx.app.inject({ method: "GET", url: "/api/admin/ledger/check", headers: cookie ? { cookie } : {} });
    expect((await call()).statusCode).toBe(401);
    expect((await call(worker.cookie)).statusCode).toBe(403);
    expect((await call(buyer.cookie)).statusCode).toBe(403);
    const admin = (await signInAdmin(ctx, "root@example.com")).cookie;
    const report = await call(admin);
    expect(report.statusCode).toBe(200);
    expect(report.json()).toMatchObject({ ok: true, problems: [] });
  });

  it("changes the name and photo with PATCH /api/me but never the role or coins", async () => {
    const form = new FormData();
    form.append("name", "Renamed Worker");
    form.append("role", "admin");
    form.append("coins", "99999");
    const encoded = new Response(form);
    const response = await ctx.app.inject({
      method: "PATCH",
      url: "/api/me",
      headers: { cookie: buyer.cookie, "content-type": encoded.headers.get("content-type") ?? "" },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ user: User }>().user).toMatchObject({
      name: "Renamed Worker",
      role: "buyer",
      coins: 50,
    });
  });
});

describe("sign-in rate limit", () => {
  it("answers 429 after AUTH_RATE_LIMIT attempts a minute from one address", async () => {
    const limited = await startTestApp({ env: { AUTH_RATE_LIMIT: "3" } });
    try {
      const attempt = (ip: string, email = "x@example.com") =>
        limited.app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          remoteAddress: ip,
          payload: { email, password: "Wrong123" },
        });
      for (let i = 0; i < 3; i += 1) expect((await attempt("10.0.0.1")).statusCode).toBe(401);
      const blocked = await attempt("10.0.0.1");
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ error: { code: "RATE_LIMITED" } });
      // A spoofed forwarding header does not escape the limit, and other addresses are unaffected.
      const spoofed = await limited.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        remoteAddress: "10.0.0.1",
        headers: { "x-forwarded-for": "1.2.3.4" },
        payload: { email: "x@example.com", password: "Wrong123" },
      });
      expect(spoofed.statusCode).toBe(429);
      // (The account itself has its own limit: see auth-routes.test.ts.)
      expect((await attempt("10.0.0.2", "y@example.com")).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe("registration rate limit and production cookies", () => {
  it("answers 429 to the registration attempt past AUTH_RATE_LIMIT a minute from one address", async () => {
    const limited = await startTestApp({ env: { AUTH_RATE_LIMIT: "2" } });
    try {
      const attempt = () =>
        limited.app.inject({ method: "POST", url: "/api/register", remoteAddress: "10.0.0.9", payload: {} });
      expect((await attempt()).statusCode).toBe(415);
      expect((await attempt()).statusCode).toBe(415);
      expect((await attempt()).json()).toMatchObject({ error: { code: "RATE_LIMITED" } });
    } finally {
      await limited.close();
    }
  });

  it("marks the session cookie Secure, HttpOnly and SameSite in production", async () => {
    const production = await startTestApp({
      env: {
        NODE_ENV: "production",
        PUBLIC_URL: "https://taskmint.example",
        AUTH_SECRET: "production-secret-production-secret-0",
      },
    });
    try {
      const user = await ensureAdmin(production.db, { email: "prod@example.com", password: "Admin123" });
      expect(user.created).toBe(true);
      const response = await production.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: { origin: "https://taskmint.example" },
        payload: { email: "prod@example.com", password: "Admin123" },
      });
      const cookie = String(response.headers["set-cookie"]);
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
    } finally {
      await production.close();
    }
  });
});
