import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ActiveSession } from "@taskmint/shared";
import { sessions } from "../../db/schema/index.ts";
import { registerUser, signIn, sessionCookie, testAppPerFile } from "../../test/harness.ts";

// The sessions list beside rows the expiry has not cleared yet.

const ctx = testAppPerFile();

const list = async (cookie: string) => {
  const answer = await ctx.app.inject({ method: "GET", url: "/api/me/sessions", headers: { cookie } });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<ActiveSession[]>();
};

describe("active sessions at their expiry", () => {
  it("lists a session until its last moment, and not one that expired but is still stored", async () => {
    const user = await registerUser(ctx.app, "worker");
    const [expiring, expired] = [
      sessionCookie(await signIn(ctx.app, user.email, user.password)),
      sessionCookie(await signIn(ctx.app, user.email, user.password)),
    ];
    const idOf = async (cookie: string) => (await list(cookie)).find((session) => session.current)?.id ?? "";
    const [expiringId, expiredId] = [await idOf(expiring), await idOf(expired)];
    const now = Date.now();
    await ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(now + 60_000) })
      .where(eq(sessions.id, expiringId));
    await ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(now - 1_000) })
      .where(eq(sessions.id, expiredId));
    expect(await ctx.db.$count(sessions, eq(sessions.userId, user.user.id))).toBe(3);
    const seen = (await list(user.cookie)).map((session) => session.id);
    expect(seen).toHaveLength(2);
    expect(seen).toContain(expiringId);
    expect(seen).not.toContain(expiredId);
  });
});
