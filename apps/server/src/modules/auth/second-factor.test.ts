import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { sessions, twoFactors } from "../../db/schema/index.ts";
import {
  changeRole,
  ADMIN_PASSWORD,
  registerUser,
  sessionCookie,
  signIn,
  signInAdmin,
  TestClock,
  testAppPerFile,
  turnOnTwoFactor,
  type RegisteredUser,
} from "../../test/harness.ts";
import { freshTotpCode, totpCode, wrongTotpCode } from "../../test/totp.ts";
import { SECOND_STEP_RULES } from "./second-step.ts";

// Rule R30 and decision 026: a session records whether it passed a second factor, and the
// second step itself holds under replays and parallel guesses.

const clock = new TestClock();
const ctx = testAppPerFile({ clock });

const post = (url: string, payload: object, cookie?: string) =>
  ctx.app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });
const me = (cookie: string) => ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
const sessionVerified = async (cookie: string) =>
  (await me(cookie)).json<{ session: { two_factor_verified: boolean } }>().session.two_factor_verified;
const sessionCount = (userId: string) => ctx.db.$count(sessions, eq(sessions.userId, userId));

/** A user with two-factor on. */
async function enrolled(role: "worker" | "buyer" = "worker") {
  const user = await registerUser(ctx.app, role);
  return {
    ...user,
    ...(await turnOnTwoFactor(ctx.app, { id: user.user.id, cookie: user.cookie, password: user.password })),
  };
}

/** A sign-in's first step: the challenge cookie. */
async function challengeFor(user: RegisteredUser) {
  const answer = await signIn(ctx.app, user.email, user.password);
  expect(answer.json()).toMatchObject({ twoFactorRedirect: true });
  return sessionCookie(answer);
}

/** What a session made before rule R30 reads as: it never passed a second factor. */
const forgetSecondFactor = (cookieOwner: string) =>
  ctx.db.update(sessions).set({ twoFactorVerified: false }).where(eq(sessions.userId, cookieOwner));

describe("a session records whether it passed a second factor", () => {
  it("turning two-factor on ends the account's other sessions, and the session that turned it on passed it", async () => {
    const admin = await signInAdmin(ctx, "enrol-admin@example.com", { twoFactor: false });
    const laptop = (await signIn(ctx.app, "enrol-admin@example.com", ADMIN_PASSWORD)).headers["set-cookie"];
    const laptopCookie = [laptop ?? []]
      .flat()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    const worker = await registerUser(ctx.app, "worker");
    expect(await sessionCount(admin.id)).toBe(2);
    // A password-only session passes nothing, whatever the account does later.
    expect(await sessionVerified(laptopCookie)).toBe(false);
    expect((await changeRole(ctx.app, laptopCookie, worker.user.id, "buyer")).statusCode).toBe(403);

    const { cookie } = await turnOnTwoFactor(ctx.app, {
      id: admin.id,
      cookie: admin.cookie,
      password: ADMIN_PASSWORD,
    });
    expect(await sessionCount(admin.id)).toBe(1);
    expect((await me(laptopCookie)).statusCode).toBe(401);
    expect((await me(admin.cookie)).statusCode).toBe(401);
    expect(await sessionVerified(cookie)).toBe(true);
    // Another account's sessions stay.
    expect((await me(worker.cookie)).statusCode).toBe(200);
    expect((await changeRole(ctx.app, laptopCookie, worker.user.id, "buyer")).statusCode).toBe(401);
    expect((await changeRole(ctx.app, cookie, worker.user.id, "buyer")).statusCode).toBe(200);
  });

  it("a sign-in's code makes a session that passed; one that did not is refused at the gate, and changes nothing", async () => {
    const admin = await signInAdmin(ctx, "gate-admin@example.com");
    const worker = await registerUser(ctx.app, "worker");
    expect(await sessionVerified(admin.cookie)).toBe(true);
    await forgetSecondFactor(admin.id);
    const refused = await changeRole(ctx.app, admin.cookie, worker.user.id, "buyer");
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      error: { code: "TWO_FACTOR_REQUIRED", details: { reason: "session_not_verified" } },
    });
    expect((await me(worker.cookie)).json()).toMatchObject({ user: { role: "worker" } });
  });

  it("a code confirmed while signed in makes this session pass, and no other", async () => {
    const admin = await signInAdmin(ctx, "step-up-admin@example.com");
    const other = await signInAdmin(ctx, "step-up-admin@example.com");
    const worker = await registerUser(ctx.app, "worker");
    await forgetSecondFactor(admin.id);
    const wrong = await post(
      "/api/auth/two-factor/verify-totp",
      { code: wrongTotpCode(admin.totpSecret ?? "") },
      admin.cookie,
    );
    expect(wrong.statusCode).toBe(401);
    expect(await sessionVerified(admin.cookie)).toBe(false);
    const confirmed = await post(
      "/api/auth/two-factor/verify-totp",
      { code: await freshTotpCode(admin.totpSecret ?? "") },
      admin.cookie,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await sessionVerified(admin.cookie)).toBe(true);
    expect(await sessionVerified(other.cookie)).toBe(false);
    expect((await changeRole(ctx.app, admin.cookie, worker.user.id, "buyer")).statusCode).toBe(200);
    expect((await changeRole(ctx.app, other.cookie, worker.user.id, "worker")).statusCode).toBe(403);
    // A third code of one secret may wait for the next time step.
  }, 70_000);

  it("a password change keeps what the session had passed, and only that", async () => {
    const user = await enrolled();
    const changed = await post(
      "/api/auth/change-password",
      { currentPassword: user.password, newPassword: "Changed12" },
      user.cookie,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await sessionVerified(sessionCookie(changed))).toBe(true);

    await forgetSecondFactor(user.user.id);
    const again = await post(
      "/api/auth/change-password",
      { currentPassword: "Changed12", newPassword: "Changed34" },
      sessionCookie(changed),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(await sessionVerified(sessionCookie(again))).toBe(false);
  });
});

describe("a TOTP code works once (RFC 6238, 5.2)", () => {
  it("refuses a code accepted in another sign-in, and an older step's; takes the next step's", async () => {
    const user = await enrolled();
    const first = await freshTotpCode(user.secret);
    const signedIn = await post(
      "/api/auth/two-factor/verify-totp",
      { code: first },
      await challengeFor(user),
    );
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const sessions = await sessionCount(user.user.id);

    const replayed = await post(
      "/api/auth/two-factor/verify-totp",
      { code: first },
      await challengeFor(user),
    );
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ error: { details: { reason: "CODE_ALREADY_USED" } } });
    expect(await sessionCount(user.user.id)).toBe(sessions);

    // The step before the one accepted is in the library's window, and still refused.
    const [row] = await ctx.db
      .select({ step: twoFactors.lastTotpStep })
      .from(twoFactors)
      .where(eq(twoFactors.userId, user.user.id));
    const older = totpCode(user.secret, new Date(((row?.step ?? 0) - 1) * 30_000));
    const olderAnswer = await post(
      "/api/auth/two-factor/verify-totp",
      { code: older },
      await challengeFor(user),
    );
    expect(olderAnswer.statusCode).toBe(401);

    const next = await post(
      "/api/auth/two-factor/verify-totp",
      { code: await freshTotpCode(user.secret) },
      await challengeFor(user),
    );
    expect(next.statusCode, next.body).toBe(200);
    expect(await sessionCount(user.user.id)).toBe(sessions + 1);
    // A third code of one secret may wait for the next time step.
  }, 70_000);

  it("lets one of two parallel sign-ins with the same code through", async () => {
    const user = await enrolled();
    const code = await freshTotpCode(user.secret);
    const challenges = [await challengeFor(user), await challengeFor(user)];
    const before = await sessionCount(user.user.id);
    const answers = await Promise.all(
      challenges.map((challenge) => post("/api/auth/two-factor/verify-totp", { code }, challenge)),
    );
    expect(answers.filter((answer) => answer.statusCode === 200).length).toBe(1);
    expect(answers.filter((answer) => answer.statusCode === 401).length).toBe(1);
    expect(await sessionCount(user.user.id)).toBe(before + 1);
  });

  it("takes the code that turned two-factor on once: the first sign-in needs the next one", async () => {
    const user = await registerUser(ctx.app, "buyer");
    const enable = await post("/api/auth/two-factor/enable", { password: user.password }, user.cookie);
    const secret = new URL(enable.json<{ totpURI: string }>().totpURI).searchParams.get("secret") ?? "";
    const code = await freshTotpCode(secret);
    expect((await post("/api/auth/two-factor/verify-totp", { code }, user.cookie)).statusCode).toBe(200);
    const reused = await post("/api/auth/two-factor/verify-totp", { code }, await challengeFor(user));
    expect(reused.statusCode).toBe(401);
  });
});

describe("wrong codes are counted before they are judged", () => {
  const { wrongCodesBeforeLock: limit, lockMinutes } = SECOND_STEP_RULES;

  it(`judges at most ${limit} of 25 parallel wrong codes, each on its own challenge; the rest and then the right code wait out the lock`, async () => {
    const user = await enrolled();
    const challenges = await Promise.all(Array.from({ length: 25 }, () => challengeFor(user)));
    const code = wrongTotpCode(user.secret);
    const answers = await Promise.all(
      challenges.map((challenge) => post("/api/auth/two-factor/verify-totp", { code }, challenge)),
    );
    const judged = answers.filter((answer) => answer.statusCode === 401);
    expect(judged.length).toBe(limit);
    for (const answer of judged)
      expect(answer.json()).toMatchObject({ error: { details: { reason: "INVALID_CODE" } } });
    expect(answers.filter((answer) => answer.statusCode === 429).length).toBe(25 - limit);

    const right = await post(
      "/api/auth/two-factor/verify-totp",
      { code: totpCode(user.secret) },
      await challengeFor(user),
    );
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers["retry-after"])).toBe(lockMinutes * 60);
  });

  it(`takes the right code after ${limit - 1} wrong ones (and starts counting again), not after ${limit}`, async () => {
    const user = await enrolled();
    const wrongTimes = async (times: number) => {
      for (let attempt = 0; attempt < times; attempt += 1) {
        // A new challenge every 5 codes: the library's own cap per challenge.
        const answer = await post(
          "/api/auth/two-factor/verify-totp",
          { code: wrongTotpCode(user.secret) },
          await challengeFor(user),
        );
        expect(answer.statusCode).toBe(401);
      }
    };
    await wrongTimes(limit - 1);
    const inside = await post(
      "/api/auth/two-factor/verify-totp",
      { code: await freshTotpCode(user.secret) },
      await challengeFor(user),
    );
    expect(inside.statusCode, inside.body).toBe(200);
    // Counting starts again from the right code.
    await wrongTimes(limit - 1);
    const stillInside = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: user.backupCodes[0] },
      await challengeFor(user),
    );
    expect(stillInside.statusCode, stillInside.body).toBe(200);
    await wrongTimes(limit);
    const outside = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: user.backupCodes[1] },
      await challengeFor(user),
    );
    expect(outside.statusCode).toBe(429);
  });

  it(`keeps the lock for ${lockMinutes} minutes, to the second`, async () => {
    const user = await enrolled();
    for (let attempt = 0; attempt < limit; attempt += 1)
      await post(
        "/api/auth/two-factor/verify-backup-code",
        { code: "wrong-00000" },
        await challengeFor(user),
      );
    clock.advanceMs(lockMinutes * 60_000 - 1000);
    const justInside = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: user.backupCodes[0] },
      await challengeFor(user),
    );
    expect(justInside.statusCode).toBe(429);
    expect(Number(justInside.headers["retry-after"])).toBe(1);
    clock.advanceMs(1000);
    const justOutside = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: user.backupCodes[0] },
      await challengeFor(user),
    );
    expect(justOutside.statusCode, justOutside.body).toBe(200);
  });

  it("counts one account's wrong codes only: another account's second step is not locked", async () => {
    const [locked, bystander] = [await enrolled(), await enrolled()];
    for (let attempt = 0; attempt < limit; attempt += 1)
      await post(
        "/api/auth/two-factor/verify-backup-code",
        { code: "wrong-00000" },
        await challengeFor(locked),
      );
    const [row] = await ctx.db
      .select({ count: twoFactors.failedVerificationCount })
      .from(twoFactors)
      .where(and(eq(twoFactors.userId, bystander.user.id)));
    expect(row?.count).toBe(0);
    const answer = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: bystander.backupCodes[0] },
      await challengeFor(bystander),
    );
    expect(answer.statusCode, answer.body).toBe(200);
  });
});
