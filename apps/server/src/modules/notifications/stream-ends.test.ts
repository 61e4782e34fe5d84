import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, verifications } from "../../db/schema/index.ts";
import { openEventStream, type OpenStream } from "../../test/event-stream.ts";
import {
  registerUser,
  sessionCookie,
  signIn,
  signInAdmin,
  startTestApp,
  TEST_ORIGIN,
  type RegisteredUser,
  type TestContext,
} from "../../test/harness.ts";
import { notify } from "./service.ts";

// A stream opened before its session ended must end with it, on every path that ends a
// session, while the streams of other sessions stay open and live.

const PROMPTLY_MS = 3_000;
let ctx: TestContext;
let base: string;
let dataDir: string;
let adminCookie: string;

beforeAll(async () => {
  // Password reset mails go to the dev outbox of DATA_DIR.
  dataDir = await mkdtemp(path.join(tmpdir(), "taskmint-stream-ends-"));
  ctx = await startTestApp({ env: { DATA_DIR: dataDir } });
  base = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  adminCookie = (await signInAdmin(ctx, "stream-admin@example.com")).cookie;
});
afterAll(async () => {
  await ctx.close();
  await rm(dataDir, { recursive: true, force: true });
});

const endsPromptly = (stream: OpenStream) =>
  Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(resolve, PROMPTLY_MS, false)),
  ]);

const inject = (method: "POST" | "PATCH" | "DELETE", url: string, cookie: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: { cookie, origin: TEST_ORIGIN }, payload: payload ?? {} });

async function resetPassword(user: RegisteredUser) {
  const asked = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/request-password-reset",
    payload: { email: user.email, redirectTo: `${TEST_ORIGIN}/reset-password` },
  });
  expect(asked.statusCode).toBe(200);
  // The token the mailed link carries, as the auth library stored it (after answering: the mail goes out in the background).
  const storedToken = async () => {
    const [stored] = await ctx.db
      .select({ identifier: verifications.identifier })
      .from(verifications)
      .where(and(like(verifications.identifier, "reset-password:%"), eq(verifications.value, user.user.id)));
    return stored?.identifier.slice("reset-password:".length) ?? "";
  };
  await expect.poll(storedToken).not.toBe("");
  const token = await storedToken();
  const done = await ctx.app.inject({
    method: "POST",
    url: "/api/password/reset",
    payload: { token, password: "NewSecret9" },
  });
  expect(done.statusCode, done.body).toBe(200);
}

const endings: [string, (user: RegisteredUser) => Promise<void>][] = [
  [
    "sign-out",
    async (user) => expect((await inject("POST", "/api/auth/sign-out", user.cookie)).statusCode).toBe(200),
  ],
  ["a password reset", resetPassword],
  [
    "its ending from the user's other session (DELETE /api/me/sessions/:id)",
    async (user) => {
      const otherCookie = sessionCookie(await signIn(ctx.app, user.email, user.password));
      const list = await ctx.app.inject({
        method: "GET",
        url: "/api/me/sessions",
        headers: { cookie: otherCookie },
      });
      const first = list.json<{ id: string; current: boolean }[]>().filter((session) => !session.current);
      expect(first).toHaveLength(1);
      expect((await inject("DELETE", `/api/me/sessions/${first[0]!.id}`, otherCookie)).statusCode).toBe(204);
    },
  ],
  [
    "a role change by an admin",
    async (user) =>
      expect(
        (await inject("PATCH", `/api/admin/users/${user.user.id}`, adminCookie, { role: "buyer" }))
          .statusCode,
      ).toBe(200),
  ],
  [
    "an account deletion by an admin",
    async (user) =>
      expect(
        (await inject("DELETE", `/api/admin/users/${user.user.id}`, adminCookie, { coins: "forfeit" }))
          .statusCode,
      ).toBe(200),
  ],
];

describe("a notification stream ends with its session", () => {
  it.each(endings)("ends at %s, and another user's stream stays open", async (_name, endSession) => {
    const user = await registerUser(ctx.app, "worker");
    const someoneElse = await registerUser(ctx.app, "worker");
    const ending = await openEventStream(base, user.cookie);
    const staying = await openEventStream(base, someoneElse.cookie);

    await endSession(user);
    expect(await endsPromptly(ending)).toBe(true);

    await notify(ctx.db, {
      userId: someoneElse.user.id,
      message: "still here",
      actionRoute: "/dashboard",
      kind: "other",
    });
    expect(await staying.receives("still here", PROMPTLY_MS)).toBe(true);
    expect(staying.hasEnded()).toBe(false);
    staying.close();
  });

  it("ends a stream whose session expired when the hub next looks (no row changed, so no notice came)", async () => {
    const user = await registerUser(ctx.app, "worker");
    const someoneElse = await registerUser(ctx.app, "worker");
    const expiring = await openEventStream(base, user.cookie);
    const staying = await openEventStream(base, someoneElse.cookie);
    await ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.user.id));
    await ctx.app.notificationHub.endStreamsOfEndedSessions();
    expect(await endsPromptly(expiring)).toBe(true);
    expect(staying.hasEnded()).toBe(false);
    staying.close();
  });

  it("ends only the stream of the session signed out, not the same user's other session", async () => {
    const user = await registerUser(ctx.app, "worker");
    const secondCookie = sessionCookie(await signIn(ctx.app, user.email, user.password));
    const signedOut = await openEventStream(base, user.cookie);
    const other = await openEventStream(base, secondCookie);

    expect((await inject("POST", "/api/auth/sign-out", user.cookie)).statusCode).toBe(200);
    expect(await endsPromptly(signedOut)).toBe(true);
    await notify(ctx.db, {
      userId: user.user.id,
      message: "on the other session",
      actionRoute: "/dashboard",
      kind: "other",
    });
    expect(await other.receives("on the other session", PROMPTLY_MS)).toBe(true);
    expect(other.hasEnded()).toBe(false);
    expect(signedOut.messages()).toEqual([]);
    other.close();
  });
});
