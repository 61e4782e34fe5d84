import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Withdrawal } from "@taskmint/shared";
import { sessions, twoFactors, users } from "../../db/schema/index.ts";
import {
  changeRole,
  ADMIN_PASSWORD,
  registerUser,
  sessionCookie,
  signIn,
  signInAdmin,
  testAppPerFile,
  turnOnTwoFactor,
  type RegisteredUser,
} from "../../test/harness.ts";
import { freshTotpCode, totpSecretOf, wrongTotpCode } from "../../test/totp.ts";
import { MINT, transfer, walletOf } from "../ledger/service.ts";

// Decision 018: two-factor sign-in (TOTP and backup codes) through the auth library's plugin,
// behind the app's own routes; admins need it to decide withdrawals or change roles.

const ctx = testAppPerFile();

const post = (url: string, payload: object, cookie?: string) =>
  ctx.app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });
const me = (cookie: string) => ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
const twoFactorOf = async (userId: string) =>
  (await ctx.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, userId)))[0]?.on;
const sessionCount = (userId: string) => ctx.db.$count(sessions, eq(sessions.userId, userId));

/** A user with two-factor on: their password sign-in now needs a second step. */
async function userWithTwoFactor(role: "worker" | "buyer" = "worker") {
  const user = await registerUser(ctx.app, role);
  const enrolled = await turnOnTwoFactor(ctx.app, {
    id: user.user.id,
    cookie: user.cookie,
    password: user.password,
  });
  return { ...user, ...enrolled };
}

/** The first step of signing in: the challenge cookie that the second step needs. */
async function firstStep(user: RegisteredUser) {
  const answer = await signIn(ctx.app, user.email, user.password);
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
  return sessionCookie(answer);
}

describe("turning two-factor sign-in on", () => {
  it("asks for the password, then a code from the app; it is on only once a code confirms it", async () => {
    const user = await registerUser(ctx.app, "buyer");

    const wrongPassword = await post("/api/auth/two-factor/enable", { password: "Wrong1234" }, user.cookie);
    expect(wrongPassword.statusCode).toBe(400);
    expect(await ctx.db.$count(twoFactors, eq(twoFactors.userId, user.user.id))).toBe(0);

    const enable = await post("/api/auth/two-factor/enable", { password: user.password }, user.cookie);
    expect(enable.statusCode, enable.body).toBe(200);
    const { totpURI, backupCodes } = enable.json<{ totpURI: string; backupCodes: string[] }>();
    const uri = new URL(totpURI);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("issuer")).toBe("TaskMint");
    expect(totpURI.startsWith(`otpauth://totp/TaskMint:${encodeURIComponent(user.email)}?`)).toBe(true);
    expect(backupCodes).toHaveLength(10);
    for (const code of backupCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
    // The secret and codes are stored encrypted, never as shown.
    const [stored] = await ctx.db.select().from(twoFactors).where(eq(twoFactors.userId, user.user.id));
    const secret = totpSecretOf(totpURI);
    expect(stored?.verified).toBe(false);
    expect(stored?.secret).not.toContain(secret);
    expect(stored?.backupCodes).not.toContain(backupCodes[0]);

    // Not yet on: a sign-in still gives a session at once.
    expect(await twoFactorOf(user.user.id)).toBe(false);
    const meanwhile = await signIn(ctx.app, user.email, user.password);
    expect(meanwhile.json()).not.toHaveProperty("twoFactorRedirect");

    const wrong = await post(
      "/api/auth/two-factor/verify-totp",
      { code: wrongTotpCode(secret) },
      user.cookie,
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({
      error: { code: "UNAUTHENTICATED", details: { reason: "INVALID_CODE" } },
    });
    expect(await twoFactorOf(user.user.id)).toBe(false);

    const confirm = await post(
      "/api/auth/two-factor/verify-totp",
      { code: await freshTotpCode(secret) },
      user.cookie,
    );
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(confirm.json()).not.toHaveProperty("token");
    expect(await twoFactorOf(user.user.id)).toBe(true);
    // The library replaces the session it turned two-factor on in.
    expect((await me(user.cookie)).statusCode).toBe(401);
    expect((await me(sessionCookie(confirm))).statusCode).toBe(200);
  });

  it("refuses to start again while it is on", async () => {
    const user = await userWithTwoFactor();
    const again = await post("/api/auth/two-factor/enable", { password: user.password }, user.cookie);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: { details: { reason: "TOTP_ALREADY_ENABLED" } } });
  });

  it("refuses malformed codes as bad input", async () => {
    const user = await registerUser(ctx.app, "worker");
    for (const code of ["12345", "1234567", "abcdef", ""]) {
      const answer = await post("/api/auth/two-factor/verify-totp", { code }, user.cookie);
      expect(answer.statusCode, code).toBe(400);
      expect(answer.json()).toMatchObject({ error: { code: "VALIDATION" } });
    }
    const badBackup = await post("/api/auth/two-factor/verify-backup-code", { code: "short" });
    expect(badBackup.json()).toMatchObject({ error: { code: "VALIDATION" } });
    const extra = await post("/api/auth/two-factor/verify-totp", { code: "123456", trustDevice: true });
    expect(extra.json()).toMatchObject({ error: { code: "VALIDATION" } });
  });
});

describe("signing in with two-factor on", () => {
  it("gives no session before the code: only a challenge, which reads as signed out", async () => {
    const user = await userWithTwoFactor();
    const before = await sessionCount(user.user.id);
    const challenge = await firstStep(user);
    expect(challenge).toMatch(/two_factor=/);
    expect(challenge).not.toMatch(/session_token=/);
    expect(await sessionCount(user.user.id)).toBe(before);
    expect((await me(challenge)).statusCode).toBe(401);

    const wrong = await post(
      "/api/auth/two-factor/verify-totp",
      { code: wrongTotpCode(user.secret) },
      challenge,
    );
    expect(wrong.statusCode).toBe(401);
    expect(await sessionCount(user.user.id)).toBe(before);

    const right = await post(
      "/api/auth/two-factor/verify-totp",
      { code: await freshTotpCode(user.secret) },
      challenge,
    );
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json()).not.toHaveProperty("token");
    expect(await sessionCount(user.user.id)).toBe(before + 1);
    expect((await me(sessionCookie(right))).statusCode).toBe(200);
    // The challenge is spent (a backup code, as each TOTP step is accepted once anyway).
    const replay = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: user.backupCodes[0] },
      challenge,
    );
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ error: { details: { reason: "INVALID_TWO_FACTOR_COOKIE" } } });
  });

  it("takes at most 5 codes per challenge: after 5 wrong ones the right one is refused too", async () => {
    const user = await userWithTwoFactor();
    const challenge = await firstStep(user);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await post(
        "/api/auth/two-factor/verify-totp",
        { code: wrongTotpCode(user.secret) },
        challenge,
      );
      expect(wrong.statusCode).toBe(401);
    }
    const right = await post(
      "/api/auth/two-factor/verify-totp",
      { code: await freshTotpCode(user.secret) },
      challenge,
    );
    expect(right.statusCode).toBe(400);
    expect(right.json()).toMatchObject({
      error: { details: { reason: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" } },
    });
    // A new challenge still works: the limit is per challenge, and 5 failures do not lock the
    // account. With a backup code: the refused TOTP code spent its time step, and the next
    // TOTP code could mean waiting up to 30 s for the next step.
    const again = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: user.backupCodes[0] },
      await firstStep(user),
    );
    expect(again.statusCode, again.body).toBe(200);
  });

  it("locks the second step for the account after 10 wrong codes in a row, across challenges", async () => {
    const user = await userWithTwoFactor();
    for (let challenge = 0; challenge < 2; challenge += 1) {
      const cookie = await firstStep(user);
      for (let attempt = 0; attempt < 5; attempt += 1)
        expect(
          (await post("/api/auth/two-factor/verify-totp", { code: wrongTotpCode(user.secret) }, cookie))
            .statusCode,
        ).toBe(401);
    }
    const locked = await post(
      "/api/auth/two-factor/verify-totp",
      { code: await freshTotpCode(user.secret) },
      await firstStep(user),
    );
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ error: { code: "RATE_LIMITED" } });
  });

  it("accepts each backup code once, with or without its dash", async () => {
    const user = await userWithTwoFactor();
    const [first, second] = user.backupCodes as [string, string];
    const used = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: first },
      await firstStep(user),
    );
    expect(used.statusCode, used.body).toBe(200);
    expect((await me(sessionCookie(used))).statusCode).toBe(200);

    const reused = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: first },
      await firstStep(user),
    );
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ error: { details: { reason: "INVALID_BACKUP_CODE" } } });

    const undashed = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: second.replace("-", "") },
      await firstStep(user),
    );
    expect(undashed.statusCode, undashed.body).toBe(200);
  });

  it("makes new backup codes with the password; the old ones stop working", async () => {
    const user = await userWithTwoFactor();
    const refused = await post(
      "/api/auth/two-factor/generate-backup-codes",
      { password: "Wrong1234" },
      user.cookie,
    );
    expect(refused.statusCode).toBe(400);
    const made = await post(
      "/api/auth/two-factor/generate-backup-codes",
      { password: user.password },
      user.cookie,
    );
    expect(made.statusCode, made.body).toBe(200);
    const fresh = made.json<{ backupCodes: string[] }>().backupCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(user.backupCodes[0]);
    const old = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: user.backupCodes[0] },
      await firstStep(user),
    );
    expect(old.statusCode).toBe(401);
    const renewed = await post(
      "/api/auth/two-factor/verify-backup-code",
      { code: fresh[0] },
      await firstStep(user),
    );
    expect(renewed.statusCode, renewed.body).toBe(200);
  });

  it("turns off with the password; then a sign-in needs no code", async () => {
    const user = await userWithTwoFactor();
    const refused = await post("/api/auth/two-factor/disable", { password: "Wrong1234" }, user.cookie);
    expect(refused.statusCode).toBe(400);
    expect(await twoFactorOf(user.user.id)).toBe(true);

    const off = await post("/api/auth/two-factor/disable", { password: user.password }, user.cookie);
    expect(off.statusCode, off.body).toBe(200);
    expect(await twoFactorOf(user.user.id)).toBe(false);
    expect(await ctx.db.$count(twoFactors, eq(twoFactors.userId, user.user.id))).toBe(0);
    const signedIn = await signIn(ctx.app, user.email, user.password);
    expect(signedIn.json()).not.toHaveProperty("twoFactorRedirect");
    expect((await me(sessionCookie(signedIn))).statusCode).toBe(200);
  });

  it("needs a session to turn on, turn off or make codes", async () => {
    for (const path of ["enable", "disable", "generate-backup-codes"]) {
      const answer = await post(`/api/auth/two-factor/${path}`, { password: "Secret12" });
      expect(answer.statusCode, path).toBe(401);
    }
  });
});

describe("the admin two-factor gate (rule R27)", () => {
  let worker: RegisteredUser;
  let withdrawals: Withdrawal[];

  beforeAll(async () => {
    worker = await registerUser(ctx.app, "worker");
    await transfer(ctx.db, {
      from: MINT,
      to: walletOf(worker.user.id),
      amount: 600,
      idempotencyKey: "gate-earn",
    });
    withdrawals = [];
    for (let index = 0; index < 2; index += 1) {
      const asked = await post(
        "/api/withdrawals",
        { withdrawal_coin: 200, payment_system: "Bkash", account_number: "01712345678" },
        worker.cookie,
      );
      expect(asked.statusCode, asked.body).toBe(201);
      withdrawals.push(asked.json<Withdrawal>());
    }
  });

  const refusedWithTwoFactorRequired = (answer: { statusCode: number; json: () => unknown }) => {
    expect(answer.statusCode).toBe(403);
    const { error } = answer.json() as { error: { code: string; message: string } };
    expect(error.code).toBe("TWO_FACTOR_REQUIRED");
    expect(error.message).toMatch(/Turn on two-factor sign-in/);
  };

  it("refuses an admin without it on approve, reject and role change, and changes nothing", async () => {
    const admin = await signInAdmin(ctx, "gate-admin@example.com", { twoFactor: false });
    const [first, second] = withdrawals as [Withdrawal, Withdrawal];
    refusedWithTwoFactorRequired(await post(`/api/admin/withdrawals/${first.id}/approve`, {}, admin.cookie));
    refusedWithTwoFactorRequired(
      await post(`/api/admin/withdrawals/${second.id}/reject`, { reason: "Wrong number" }, admin.cookie),
    );
    refusedWithTwoFactorRequired(await changeRole(ctx.app, admin.cookie, worker.user.id, "buyer"));
    // Reading stays open: the pages show what waits, and why it cannot be decided yet.
    const pending = await ctx.app.inject({
      method: "GET",
      url: "/api/admin/withdrawals?status=pending",
      headers: { cookie: admin.cookie },
    });
    expect(pending.json()).toMatchObject({ total: 2 });
    expect((await me(worker.cookie)).json()).toMatchObject({ user: { role: "worker" } });
  });

  it("lets the same admin decide once two-factor is on", async () => {
    const admin = await signInAdmin(ctx, "gate-admin@example.com", { twoFactor: false });
    const { cookie } = await turnOnTwoFactor(ctx.app, {
      id: admin.id,
      cookie: admin.cookie,
      password: ADMIN_PASSWORD,
    });
    const [first, second] = withdrawals as [Withdrawal, Withdrawal];
    const approved = await post(`/api/admin/withdrawals/${first.id}/approve`, {}, cookie);
    expect(approved.statusCode, approved.body).toBe(200);
    const rejected = await post(
      `/api/admin/withdrawals/${second.id}/reject`,
      { reason: "Wrong number" },
      cookie,
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    const changed = await changeRole(ctx.app, cookie, worker.user.id, "buyer");
    expect(changed.statusCode, changed.body).toBe(200);
  });
});

describe("the second step's per-address limit", () => {
  const limited = testAppPerFile({ env: { AUTH_RATE_LIMIT: "3" } });

  it("answers 429 past AUTH_RATE_LIMIT codes a minute from one address", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const answer = await limited.app.inject({
        method: "POST",
        url: "/api/auth/two-factor/verify-totp",
        remoteAddress: "203.0.113.50",
        payload: { code: "123456" },
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const elsewhere = await limited.app.inject({
      method: "POST",
      url: "/api/auth/two-factor/verify-totp",
      remoteAddress: "203.0.113.51",
      payload: { code: "123456" },
    });
    expect(elsewhere.statusCode).toBe(401);
  });
});
