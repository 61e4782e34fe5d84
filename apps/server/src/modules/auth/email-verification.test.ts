import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { User } from "@taskmint/shared";
import { users, withdrawals } from "../../db/schema/index.ts";
import {
  type RegisteredUser,
  registerUser,
  signInAdmin,
  TEST_ORIGIN,
  testAppPerFile,
} from "../../test/harness.ts";
import { mailCatcherPerFile, type ReceivedMail } from "../../test/mail-catcher.ts";
import { MINT, transfer, walletOf } from "../ledger/service.ts";
import { VERIFICATION_MAILS_PER_HOUR } from "./routes.ts";

// Rule R28: a verification mail at registration and on request; a worker confirms their
// address before the first withdrawal.

const mail = mailCatcherPerFile();
const ctx = testAppPerFile(() => ({ env: { SMTP_URL: mail.url } }));

const SUBJECT = "Confirm your TaskMint email address";
const bkash = { withdrawal_coin: 200, payment_system: "Bkash", account_number: "01712345678" };

async function me(cookie: string): Promise<User> {
  const answer = await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ user: User }>().user;
}

/** An unverified worker with enough coins to withdraw. */
async function unverifiedWorker(): Promise<RegisteredUser> {
  const worker = await registerUser(ctx.app, "worker", { unverified: true });
  await transfer(ctx.db, {
    from: MINT,
    to: walletOf(worker.user.id),
    amount: 400,
    idempotencyKey: `top-up:${worker.user.id}`,
  });
  return worker;
}

const withdraw = (worker: RegisteredUser) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/withdrawals",
    headers: { cookie: worker.cookie },
    payload: bkash,
  });

/** Opens the mailed link as a browser does (signed out): answers where it was sent. */
async function follow(received: ReceivedMail, cookie = ""): Promise<URL> {
  const link = new URL(/https?:\/\/\S+/.exec(received.text)?.[0] ?? "");
  expect(link.origin).toBe(TEST_ORIGIN);
  const answer = await ctx.app.inject({
    method: "GET",
    url: `${link.pathname}${link.search}`,
    headers: { cookie },
  });
  expect(answer.statusCode, answer.body).toBe(302);
  return new URL(String(answer.headers.location), TEST_ORIGIN);
}

const workerWithdrawals = async (workerId: string) =>
  (await ctx.db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.workerId, workerId)))[0]?.n;

describe("email verification", () => {
  it("mails a link at registration; a worker cannot withdraw until it is opened, then can", async () => {
    const worker = await unverifiedWorker();
    expect((await me(worker.cookie)).email_verified).toBe(false);

    const refused = await withdraw(worker);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: "EMAIL_NOT_VERIFIED" } });
    expect((await me(worker.cookie)).coins).toBe(410);
    expect(await workerWithdrawals(worker.user.id)).toBe(0);

    const received = await mail.waitFor(worker.email, SUBJECT);
    expect(received.text).toContain("24 hours");
    // Signed out, from the mail app: the link alone confirms the address, and signs nobody in.
    const landed = await follow(received);
    expect(landed.pathname).toBe("/verify-email");
    expect(landed.searchParams.get("error")).toBeNull();
    expect((await me(worker.cookie)).email_verified).toBe(true);

    expect((await withdraw(worker)).statusCode).toBe(201);
    expect(await workerWithdrawals(worker.user.id)).toBe(1);
    // Opening it again changes nothing and lands on the same page.
    expect((await follow(received)).pathname).toBe("/verify-email");
  });

  it("refuses a forged or altered link, sending the browser back with the reason, and confirms nothing", async () => {
    const worker = await unverifiedWorker();
    const received = await mail.waitFor(worker.email, SUBJECT);
    const link = new URL(/https?:\/\/\S+/.exec(received.text)?.[0] ?? "");
    const token = link.searchParams.get("token") ?? "";
    const [header, , signature] = token.split(".");
    const otherPayload = Buffer.from(JSON.stringify({ email: "someone@example.com" })).toString("base64url");
    for (const forged of [`${token.slice(0, -2)}xx`, `${header}.${otherPayload}.${signature}`]) {
      const answer = await ctx.app.inject({
        method: "GET",
        url: `/api/auth/verify-email?token=${forged}&callbackURL=${encodeURIComponent(`${TEST_ORIGIN}/verify-email`)}`,
      });
      expect(answer.statusCode).toBe(302);
      expect(new URL(String(answer.headers.location)).searchParams.get("error")).toBe("INVALID_TOKEN");
    }
    for (const bad of [
      `token=${token}&callbackURL=${encodeURIComponent("https://evil.example/")}`,
      `token=${encodeURIComponent("<script>")}`,
      "token=",
      `token=${"a".repeat(2001)}`,
    ]) {
      const answer = await ctx.app.inject({ method: "GET", url: `/api/auth/verify-email?${bad}` });
      expect(answer.statusCode, bad).toBe(400);
      expect(answer.headers.location).toBeUndefined();
    }
    expect((await me(worker.cookie)).email_verified).toBe(false);
  });

  it("resends on request, a few times an hour, and not once the address is confirmed", async () => {
    const worker = await unverifiedWorker();
    await mail.waitFor(worker.email, SUBJECT);
    const resend = (cookie: string) =>
      ctx.app.inject({ method: "POST", url: "/api/me/verify-email/resend", headers: { cookie } });
    for (let sent = 1; sent <= VERIFICATION_MAILS_PER_HOUR; sent += 1) {
      const answer = await resend(worker.cookie);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json<{ message: string }>().message).toContain(worker.email);
    }
    const tooMany = await resend(worker.cookie);
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.headers["retry-after"]).toBeDefined();
    await expect.poll(() => mail.mailsTo(worker.email, SUBJECT).length).toBe(1 + VERIFICATION_MAILS_PER_HOUR);
    // Each of them works.
    const newest = mail.mailsTo(worker.email, SUBJECT).at(-1);
    if (!newest) throw new Error("no mail");
    await follow(newest);
    expect((await me(worker.cookie)).email_verified).toBe(true);

    const verified = await registerUser(ctx.app, "buyer");
    const already = await resend(verified.cookie);
    expect(already.statusCode).toBe(409);
    expect(already.json()).toMatchObject({ error: { code: "CONFLICT" } });
    expect((await resend("")).statusCode).toBe(401);
  });

  it("lets a worker already paid before the rule withdraw again without a new confirmation", async () => {
    const worker = await registerUser(ctx.app, "worker");
    await transfer(ctx.db, {
      from: MINT,
      to: walletOf(worker.user.id),
      amount: 400,
      idempotencyKey: `top-up:${worker.user.id}`,
    });
    const first = await withdraw(worker);
    expect(first.statusCode).toBe(201);
    const admin = await signInAdmin(ctx, "admin-verify@example.com");
    const approved = await ctx.app.inject({
      method: "POST",
      url: `/api/admin/withdrawals/${first.json<{ id: string }>().id}/approve`,
      headers: { cookie: admin.cookie },
      payload: { payout_reference: "TX-1" },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    // An account from before addresses were confirmed.
    await ctx.db.update(users).set({ emailVerified: false }).where(eq(users.id, worker.user.id));
    expect((await withdraw(worker)).statusCode).toBe(201);
    expect(await workerWithdrawals(worker.user.id)).toBe(2);
  });
});
