import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "@taskmint/shared";
import { eq } from "drizzle-orm";
import { sessions, users } from "../../db/schema/index.ts";
import {
  changeRole,
  TEST_ORIGIN,
  registerUser,
  signInAdmin,
  startTestApp,
  testImage,
  type TestContext,
} from "../../test/harness.ts";
import { freshTotpCode } from "../../test/totp.ts";

// Google's part is played by a real OpenID Connect provider on 127.0.0.1 (oauth2-mock-server:
// discovery, authorize with PKCE, token endpoint, signed ID tokens); the app reaches it through
// GOOGLE_ISSUER_URL and the same /api/auth routes the browser uses with Google.

interface GoogleProfile {
  sub: string;
  email: string;
  name: string;
  picture?: string;
}

const provider = new OAuth2Server();
let nextProfile: GoogleProfile | null = null;
let denyNext = false;
let photos: Server;
let photoBase = "";
let ctx: TestContext;

/** A stand-in for Google's photo host: one real photo and the ways a fetch can go wrong. */
async function startPhotoHost(): Promise<Server> {
  const png = await testImage("png", 96);
  const server = createServer((request, response) => {
    switch (request.url) {
      case "/photo.png":
        response.writeHead(200, { "content-type": "image/png" }).end(png);
        return;
      case "/not-an-image":
        response.writeHead(200, { "content-type": "image/png" }).end("<html>hello</html>");
        return;
      case "/huge":
        // No length header: the cap must count the bytes as they come (6 MB of them).
        response.writeHead(200, { "content-type": "image/png" });
        for (let i = 0; i < 6; i += 1) response.write(Buffer.alloc(1024 * 1024, 7));
        response.end();
        return;
      case "/slow":
        response.writeHead(200, { "content-type": "image/png" });
        response.write(png.subarray(0, 10));
        setTimeout(() => response.end(png.subarray(10)), 7000).unref();
        return;
      default:
        response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

beforeAll(async () => {
  await provider.issuer.keys.generate("RS256");
  await provider.start(0, "127.0.0.1");
  // Named by address: "localhost" may resolve to ::1, where nothing listens.
  provider.issuer.url = `http://127.0.0.1:${provider.address().port}`;
  provider.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
    if (nextProfile) Object.assign(token.payload, { ...nextProfile, email_verified: true });
  });
  provider.service.on("beforeAuthorizeRedirect", (redirect: { url: URL }) => {
    if (!denyNext) return;
    // What Google sends back when the person presses Cancel on its consent screen.
    redirect.url.searchParams.delete("code");
    redirect.url.searchParams.set("error", "access_denied");
  });
  photos = await startPhotoHost();
  photoBase = `http://127.0.0.1:${(photos.address() as AddressInfo).port}`;
  ctx = await startTestApp({
    env: {
      GOOGLE_CLIENT_ID: "taskmint-test-client",
      GOOGLE_CLIENT_SECRET: "taskmint-test-secret",
      GOOGLE_ISSUER_URL: provider.issuer.url,
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await provider.stop();
  photos.closeAllConnections();
  await new Promise((resolve) => photos.close(resolve));
});

const cookiesOf = (setCookie: string | string[] | undefined) =>
  [setCookie ?? []]
    .flat()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

/**
 * The browser's part: the web app asks for the sign-in URL, the browser follows it to the
 * provider, which authorizes and sends it back to our callback with the state cookie.
 * Answers where the callback sends the browser and the session cookie it set, if any.
 */
async function signInWithGoogle(options: {
  profile: GoogleProfile;
  deny?: boolean;
  role?: "worker";
  returnTo: string;
}) {
  nextProfile = options.profile;
  denyNext = options.deny ?? false;
  const started = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/social",
    headers: { origin: TEST_ORIGIN },
    payload: {
      provider: "google",
      callbackURL: options.returnTo,
      errorCallbackURL: `/login?from=${encodeURIComponent(options.returnTo)}`,
      ...(options.role ? { additionalData: { role: options.role } } : {}),
    },
  });
  expect(started.statusCode, started.body).toBe(200);
  const authorizeUrl = new URL(started.json<{ url: string }>().url);
  expect(authorizeUrl.origin).toBe(provider.issuer.url);

  const authorized = await fetch(authorizeUrl, { redirect: "manual" });
  expect(authorized.status).toBe(302);
  const callback = new URL(authorized.headers.get("location") ?? "");
  expect(`${callback.origin}${callback.pathname}`).toBe(`${TEST_ORIGIN}/api/auth/callback/google`);

  const landed = await ctx.app.inject({
    method: "GET",
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: cookiesOf(started.headers["set-cookie"]) },
  });
  expect(landed.statusCode).toBe(302);
  const session = landed.cookies.find((cookie) => cookie.name.endsWith("session_token") && cookie.value);
  const challenge = landed.cookies.find((cookie) => cookie.name.endsWith("two_factor") && cookie.value);
  return {
    location: landed.headers.location ?? "",
    cookie: session ? `${session.name}=${session.value}` : null,
    /** The second step's challenge, when the account has two-factor sign-in on. */
    challenge: challenge ? `${challenge.name}=${challenge.value}` : null,
  };
}

async function me(cookie: string | null): Promise<User> {
  const answer = await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: cookie ?? "" } });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ user: User }>().user;
}

let sequence = 0;
const profile = (picture?: string): GoogleProfile => {
  sequence += 1;
  return {
    sub: `google-${sequence}`,
    email: `gina${sequence}@example.com`,
    name: `Gina Google ${sequence}`,
    ...(picture ? { picture } : {}),
  };
};

describe("Google sign-in against a local OpenID Connect provider", () => {
  it("signs a first-time user up as a buyer with 50 coins (rule R1), back on the page they asked for, with the photo stored here", async () => {
    const gina = profile(`${photoBase}/photo.png`);
    const { location, cookie } = await signInWithGoogle({
      profile: gina,
      returnTo: "/dashboard/purchase-coin",
    });
    expect(location).toBe("/dashboard/purchase-coin");
    const user = await me(cookie);
    // Google vouches for the address (rule R28): no verification mail is needed.
    expect(user).toMatchObject({
      email: gina.email,
      name: gina.name,
      role: "buyer",
      coins: 50,
      email_verified: true,
    });
    expect(user.photo).toMatch(/^\/uploads\/[0-9a-f-]+\.webp$/);
    const photo = await ctx.app.inject({ method: "GET", url: user.photo ?? "" });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/webp");

    // Signing in again finds the same account: no second bonus, same photo.
    const again = await signInWithGoogle({ profile: gina, returnTo: "/dashboard" });
    expect(again.location).toBe("/dashboard");
    expect(await me(again.cookie)).toEqual(user);
  });

  it("makes a worker with 10 coins when /register passed the role chosen there", async () => {
    const { cookie } = await signInWithGoogle({
      profile: profile(`${photoBase}/photo.png`),
      role: "worker",
      returnTo: "/dashboard",
    });
    expect(await me(cookie)).toMatchObject({ role: "worker", coins: 10, email_verified: true });
  });

  it.each([
    ["is not an image", "/not-an-image"],
    ["is larger than 5 MB", "/huge"],
    ["takes longer than the time allowed", "/slow"],
    ["does not exist", "/missing.png"],
  ])(
    "signs the user up without a photo when the photo %s",
    async (_why, path) => {
      const { cookie } = await signInWithGoogle({
        profile: profile(`${photoBase}${path}`),
        returnTo: "/dashboard",
      });
      expect(await me(cookie)).toMatchObject({ role: "buyer", coins: 50, photo: null });
    },
    15_000,
  );

  it("lands on /login with the error, keeping the page asked for, when the person cancels at the provider", async () => {
    const { location, cookie } = await signInWithGoogle({
      profile: profile(),
      deny: true,
      returnTo: "/dashboard/my-submissions",
    });
    expect(cookie).toBeNull();
    const landing = new URL(location, TEST_ORIGIN);
    expect(landing.pathname).toBe("/login");
    expect(landing.searchParams.get("error")).toBe("access_denied");
    expect(landing.searchParams.get("from")).toBe("/dashboard/my-submissions");
  });

  it("sends a callback without a sign-in of its own (no state) to /login with the error", async () => {
    const landed = await ctx.app.inject({ method: "GET", url: "/api/auth/callback/google?code=forged" });
    expect(landed.statusCode).toBe(302);
    expect(landed.headers.location).toBe(`${TEST_ORIGIN}/login?error=state_not_found`);
  });

  it("hands the library the query it checked: a state the two parsers would read differently finds no sign-in", async () => {
    // Fastify keeps the undecodable "%00%ZZ" as text; the library would have decoded the raw "%00" into a NUL for its SQL.
    const landed = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/callback/google?state=%00%ZZ&code=forged",
    });
    expect(landed.statusCode).toBe(302);
    expect(landed.headers.location).toMatch(
      new RegExp(`^${TEST_ORIGIN}/login\\?error=state_(mismatch|not_found)$`),
    );
  });

  it("asks an account with two-factor on for its code, as a password sign-in does (rule R30)", async () => {
    const email = "gina-admin@example.com";
    const admin = await signInAdmin(ctx, email);
    // The library links a Google sign-in to an account whose address is confirmed.
    await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, admin.id));
    const sessionsBefore = await ctx.db.$count(sessions, eq(sessions.userId, admin.id));
    const worker = await registerUser(ctx.app, "worker");

    const landed = await signInWithGoogle({
      profile: { sub: "google-admin", email, name: "Gina Admin" },
      returnTo: "/dashboard/manage-users",
    });
    // No session: the sign-in page's code step, with the page asked for kept.
    expect(landed.cookie).toBeNull();
    expect(landed.challenge).not.toBeNull();
    const landing = new URL(landed.location, TEST_ORIGIN);
    expect(landing.pathname).toBe("/login");
    expect(landing.searchParams.get("second_step")).toBe("1");
    expect(landing.searchParams.get("from")).toBe("/dashboard/manage-users");
    expect(await ctx.db.$count(sessions, eq(sessions.userId, admin.id))).toBe(sessionsBefore);
    const gated = () => changeRole(ctx.app, landed.challenge ?? "", worker.user.id, "buyer");
    expect((await gated()).statusCode).toBe(401);

    const secret = admin.totpSecret ?? "";
    const second = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/two-factor/verify-totp",
      headers: { cookie: landed.challenge ?? "" },
      payload: { code: await freshTotpCode(secret) },
    });
    expect(second.statusCode, second.body).toBe(200);
    const session = second.cookies.find((cookie) => cookie.name.endsWith("session_token") && cookie.value);
    const cookie = `${session?.name}=${session?.value}`;
    const answer = await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
    expect(answer.json()).toMatchObject({
      user: { email, role: "admin" },
      session: { two_factor_verified: true },
    });
    const changed = await changeRole(ctx.app, cookie, worker.user.id, "buyer");
    expect(changed.statusCode, changed.body).toBe(200);
  });

  it("gives an account without two-factor its session at once", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const landed = await signInWithGoogle({
      profile: { sub: "google-plain", email: worker.email, name: "Plain Worker" },
      returnTo: "/dashboard",
    });
    expect(landed.challenge).toBeNull();
    expect(landed.location).toBe("/dashboard");
    expect(await me(landed.cookie)).toMatchObject({ email: worker.email });
  });
});
