import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "./env.ts";
import { TEST_ORIGIN, registerUser, sessionCookie, testAppPerFile } from "./test/harness.ts";

const ctx = testAppPerFile();

describe("operations", () => {
  it("answers /healthz when the database answers", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(response.headers["x-request-id"]).toBeTruthy();
  });

  it("publishes the OpenAPI document generated from the routes", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/register", "/api/me", "/api/admin/ledger/check", "/healthz"]),
    );
    const docs = await ctx.app.inject({ method: "GET", url: "/api/docs/" });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers["content-type"]).toContain("text/html");
  });

  it("sends security headers and a strict content security policy", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/healthz" });
    expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
  });

  it("answers unknown API routes with a JSON 404", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/nope" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("answers malformed JSON with a 400 in the error format, never a 5xx", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: "VALIDATION" } });
  });

  it("refuses mutations from another origin", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: "https://evil.example" },
      payload: { email: "a@example.com", password: "Secret12" },
    });
    expect(response.statusCode).toBe(403);
    const sameOrigin = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: TEST_ORIGIN },
      payload: { email: "a@example.com", password: "Secret12" },
    });
    expect(sameOrigin.statusCode).toBe(401);
  });

  it("takes the address a request was sent to as its own origin, PUBLIC_URL's as well, and no other (issue 31)", async () => {
    const user = await registerUser(ctx.app, "worker");
    // What Chromium sends with the sign-in form's fetch: the page's Origin and Fetch Metadata, which
    // make the auth library check the Origin too; once the browser has a cookie, it checks it always.
    const signIn = (host: string, origin: string, cookie?: string) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: {
          host,
          origin,
          "sec-fetch-site": "same-origin",
          "sec-fetch-mode": "cors",
          "sec-fetch-dest": "empty",
          ...(cookie ? { cookie } : {}),
        },
        payload: { email: user.email, password: user.password },
      });
    for (const [host, origin] of [
      ["127.0.0.1:3000", "http://127.0.0.1:3000"],
      ["192.168.1.20:3000", "http://192.168.1.20:3000"],
      ["[::1]:3000", "http://[::1]:3000"],
      ["TaskMint.lan", "http://taskmint.lan"],
      // PUBLIC_URL's origin adds to the request's own; it does not replace it.
      ["127.0.0.1:3000", TEST_ORIGIN],
    ] as const) {
      for (const cookie of [undefined, "tm_device=a-device"]) {
        const signedIn = await signIn(host, origin, cookie);
        expect(signedIn.statusCode, `${origin} to ${host}: ${signedIn.body}`).toBe(200);
        const session = sessionCookie(signedIn);
        // A signed-in request through the same address, checked by both the app and the library.
        const signedOut = await ctx.app.inject({
          method: "POST",
          url: "/api/auth/sign-out",
          headers: { host, origin, "sec-fetch-site": "same-origin", cookie: session },
          payload: {},
        });
        expect(signedOut.statusCode, `sign-out through ${host}: ${signedOut.body}`).toBe(200);
      }
    }
    const refusals: [host: string, origin: string, fetchSite?: string][] = [
      ["127.0.0.1:3000", "http://evil.example"],
      ["localhost:4000", "http://127.0.0.1:3000"],
      ["127.0.0.1:3000", "https://127.0.0.1:3000"],
      ["127.0.0.1:3000", "http://127.0.0.1:3001"],
      ["127.0.0.1:3000", "null"],
      // A Host that is a wildcard to the auth library's matcher is no host at all.
      ["*", "http://*"],
      ["127.0.0.1:3000", "http://127.0.0.1:3000", "cross-site"],
    ];
    for (const [host, origin, fetchSite = "same-origin"] of refusals) {
      const refused = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: { host, origin, "sec-fetch-site": fetchSite },
        payload: { email: user.email, password: user.password },
      });
      expect(refused.statusCode, `${origin} to ${host} (${fetchSite})`).toBe(403);
      expect(refused.json<{ error: { message: string } }>().error.message).toBe(
        "Requests from other sites are refused",
      );
    }
  });

  it("tells the web app whether Google sign-in is configured", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/config" });
    expect(response.json()).toMatchObject({ google_enabled: false, payment_provider: "sandbox" });
  });
});

describe("loadEnv", () => {
  it("applies the defaults", () => {
    const env = loadEnv({ INIT_CWD: "/srv/taskmint" });
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: "/srv/taskmint/data",
      AUTH_RATE_LIMIT: 10,
      AUTO_APPROVE_DAYS: 3,
      PAYMENT_PROVIDER: "sandbox",
      PUBLIC_URL: "http://localhost:3000",
      DATABASE_STATEMENT_TIMEOUT_MS: 5000,
    });
    expect(loadEnv({ DATABASE_STATEMENT_TIMEOUT_MS: "0" }).DATABASE_STATEMENT_TIMEOUT_MS).toBe(0);
  });

  it("lists every bad variable at once", () => {
    try {
      loadEnv({
        PORT: "abc",
        DATABASE_URL: "mysql://x",
        NODE_ENV: "production",
        AUTO_APPROVE_DAYS: "0",
        DATABASE_STATEMENT_TIMEOUT_MS: "-1",
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const problems = (error as EnvError).problems.join("\n");
      for (const name of ["PORT", "DATABASE_URL", "AUTO_APPROVE_DAYS", "DATABASE_STATEMENT_TIMEOUT_MS"])
        expect(problems).toContain(name);
    }
  });

  it("requires AUTH_SECRET in production", () => {
    expect(() => loadEnv({ NODE_ENV: "production" })).toThrow(/AUTH_SECRET/);
  });
});
