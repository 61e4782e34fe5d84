import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Task } from "@taskmint/shared";
import { sessions, verifications } from "../../db/schema/index.ts";
import { openEventStream, type OpenStream } from "../../test/event-stream.ts";
import {
  notifyUser,
  postTask,
  type RegisteredUser,
  registerUser,
  sessionCookie,
  signIn,
  signInAdmin,
  startTestApp,
  TEST_ORIGIN,
  type TestContext,
} from "../../test/harness.ts";

// A stream opened before its session ended must end with it, on every path that ends a
// session, while the streams of other sessions stay open and live. An ended stream leaves the
// hub as it ends: nothing written afterwards (a notification, a heartbeat) reaches its response,
// whose 'error' for a write after its end, unheard, would end the process (issue 31).

const PROMPTLY_MS = 3_000;
let ctx: TestContext;
let base: string;
let dataDir: string;
let adminCookie: string;
// Vitest reports an uncaught error only after the file; this pins it to the test that caused it.
const uncaught: unknown[] = [];
const recordUncaught = (error: unknown) => uncaught.push(error);
/** Told when a request asking to be held until its client leaves (LEAVES_EARLY) arrives. */
let arrivedHeld = () => {};
const LEAVES_EARLY = "x-test-leaves-early";

beforeAll(async () => {
  process.on("uncaughtException", recordUncaught);
  // Password reset mails go to the dev outbox of DATA_DIR.
  dataDir = await mkdtemp(path.join(tmpdir(), "taskmint-stream-ends-"));
  ctx = await startTestApp({
    env: { DATA_DIR: dataDir },
    // Holds such a request, before its session is read, until its client is gone.
    configure: (app) =>
      app.addHook("preHandler", async (request) => {
        if (request.headers[LEAVES_EARLY] === undefined) return;
        arrivedHeld();
        if (!request.raw.socket.destroyed) await once(request.raw.socket, "close");
      }),
  });
  base = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  adminCookie = (await signInAdmin(ctx, "stream-admin@example.com")).cookie;
});
afterAll(async () => {
  await ctx.close();
  await rm(dataDir, { recursive: true, force: true });
  process.off("uncaughtException", recordUncaught);
  expect(uncaught).toEqual([]);
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

async function submitWork(worker: RegisteredUser) {
  const buyer = await registerUser(ctx.app, "buyer");
  const task = (await postTask(ctx.app, buyer.cookie)).json<Task>();
  const submitted = await inject("POST", `/api/tasks/${task.id}/submissions`, worker.cookie, {
    submission_details: "Done",
  });
  expect(submitted.statusCode, submitted.body).toBe(201);
}

const signInAgain = async (user: RegisteredUser) =>
  sessionCookie(await signIn(ctx.app, user.email, user.password));

const hub = () => ctx.app.notificationHub;

interface Ending {
  /** Done before the stream opens. */
  prepare?: (user: RegisteredUser) => Promise<void>;
  end: (user: RegisteredUser, stream: OpenStream) => Promise<void>;
}

const endings: [string, Ending][] = [
  [
    "sign-out",
    {
      end: async (user) =>
        expect((await inject("POST", "/api/auth/sign-out", user.cookie)).statusCode).toBe(200),
    },
  ],
  ["a password reset", { end: resetPassword }],
  [
    "a password change from the user's other session",
    {
      end: async (user) => {
        const changed = await inject("POST", "/api/auth/change-password", await signInAgain(user), {
          currentPassword: user.password,
          newPassword: "Changed99",
        });
        expect(changed.statusCode, changed.body).toBe(200);
      },
    },
  ],
  [
    "its ending from the user's other session (Profile's session list, DELETE /api/me/sessions/:id)",
    {
      end: async (user) => {
        const otherCookie = await signInAgain(user);
        const list = await ctx.app.inject({
          method: "GET",
          url: "/api/me/sessions",
          headers: { cookie: otherCookie },
        });
        const first = list.json<{ id: string; current: boolean }[]>().filter((session) => !session.current);
        expect(first).toHaveLength(1);
        expect((await inject("DELETE", `/api/me/sessions/${first[0]!.id}`, otherCookie)).statusCode).toBe(
          204,
        );
      },
    },
  ],
  [
    "a role change by an admin",
    {
      end: async (user) =>
        expect(
          (await inject("PATCH", `/api/admin/users/${user.user.id}`, adminCookie, { role: "buyer" }))
            .statusCode,
        ).toBe(200),
    },
  ],
  [
    // The deletion rejects the worker's pending work, and tells them so, in the commit that ends the stream.
    "an account deletion by an admin, with the worker's work pending",
    {
      prepare: submitWork,
      end: async (user) =>
        expect(
          (await inject("DELETE", `/api/admin/users/${user.user.id}`, adminCookie, { coins: "forfeit" }))
            .statusCode,
        ).toBe(200),
    },
  ],
  [
    "the expiry sweep (no row changed, so no notice came)",
    {
      end: async (user) => {
        await ctx.db
          .update(sessions)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(sessions.userId, user.user.id));
        await hub().endStreamsOfEndedSessions();
        // Out of the hub as it ends, not once the response's last bytes left.
        expect(hub().streamCount(user.user.id)).toBe(0);
      },
    },
  ],
  [
    "the client leaving",
    {
      end: async (user, stream) => {
        stream.close();
        await expect.poll(() => hub().streamCount(user.user.id)).toBe(0);
      },
    },
  ],
];

async function expectServerAnswers(someoneElse: RegisteredUser) {
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  const theirs = await fetch(`${base}/api/notifications`, { headers: { cookie: someoneElse.cookie } });
  expect(theirs.status).toBe(200);
}

describe("a notification stream ends with its session", () => {
  it.each(endings)(
    "ends at %s: out of the hub at once, a notification and a heartbeat after it reach no one, the server answers",
    async (_name, { prepare, end }) => {
      const user = await registerUser(ctx.app, "worker");
      const someoneElse = await registerUser(ctx.app, "worker");
      await prepare?.(user);
      const ending = await openEventStream(base, user.cookie);
      const staying = await openEventStream(base, someoneElse.cookie);
      expect(hub().streamCount(user.user.id)).toBe(1);

      await end(user, ending);
      expect(await endsPromptly(ending)).toBe(true);
      expect(hub().streamCount(user.user.id)).toBe(0);

      await notifyUser(ctx, user.user.id, "after the end");
      hub().heartbeat();
      await notifyUser(ctx, someoneElse.user.id, "still here");
      expect(await staying.receives("still here", PROMPTLY_MS)).toBe(true);
      expect(await staying.receivesHeartbeats(1, PROMPTLY_MS)).toBe(true);
      expect(staying.hasEnded()).toBe(false);
      expect(hub().streamCount(someoneElse.user.id)).toBe(1);
      expect(ending.messages()).toEqual([]);
      await expectServerAnswers(someoneElse);
      expect(uncaught).toEqual([]);
      staying.close();
    },
  );

  it("ends only the stream of the session signed out, not the same user's other session", async () => {
    const user = await registerUser(ctx.app, "worker");
    const secondCookie = await signInAgain(user);
    const signedOut = await openEventStream(base, user.cookie);
    const other = await openEventStream(base, secondCookie);
    expect(hub().streamCount(user.user.id)).toBe(2);

    expect((await inject("POST", "/api/auth/sign-out", user.cookie)).statusCode).toBe(200);
    expect(await endsPromptly(signedOut)).toBe(true);
    expect(hub().streamCount(user.user.id)).toBe(1);
    await notifyUser(ctx, user.user.id, "on the other session");
    hub().heartbeat();
    expect(await other.receives("on the other session", PROMPTLY_MS)).toBe(true);
    expect(await other.receivesHeartbeats(1, PROMPTLY_MS)).toBe(true);
    expect(other.hasEnded()).toBe(false);
    expect(signedOut.messages()).toEqual([]);
    other.close();
  });

  it("leaves nothing in the hub when the client left before its stream opened", async () => {
    const user = await registerUser(ctx.app, "worker");
    const opening = vi.spyOn(hub(), "open");
    const arrived = new Promise<void>((resolve) => (arrivedHeld = resolve));
    const controller = new AbortController();
    const request = fetch(`${base}/api/notifications/stream`, {
      headers: { cookie: user.cookie, [LEAVES_EARLY]: "yes" },
      signal: controller.signal,
    }).catch(() => undefined);
    await arrived;
    controller.abort();
    await request;
    // The handler ran for a response already closed: no 'close' is still to come.
    await expect.poll(() => opening.mock.results.length).toBe(1);
    expect(hub().streamCount(user.user.id)).toBe(0);
    opening.mockRestore();
  });
});
