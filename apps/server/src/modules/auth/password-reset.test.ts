import { like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PASSWORD_RULE_MESSAGE } from "@taskmint/shared";
import { verifications } from "../../db/schema/index.ts";
import { registerUser, sessionCookie, signIn, TEST_ORIGIN, testAppPerFile } from "../../test/harness.ts";
import { mailCatcherPerFile, type ReceivedMail } from "../../test/mail-catcher.ts";

const mail = mailCatcherPerFile();
const ctx = testAppPerFile(() => ({ env: { SMTP_URL: mail.url } }));

const requestReset = (email: string) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/auth/request-password-reset",
    payload: { email, redirectTo: `${TEST_ORIGIN}/reset-password` },
  });

/** The reset mail to `to` (registration also mails a verification link). */
const waitForMail = (to: string) => mail.waitFor(to, "Reset your TaskMint password");

/** Follows the mailed link the way a browser does, to the page that receives the token. */
async function tokenFromMail(mail: ReceivedMail): Promise<string> {
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0] ?? "";
  const url = new URL(link);
  const response = await ctx.app.inject({ method: "GET", url: `${url.pathname}${url.search}` });
  expect(response.statusCode).toBe(302);
  const target = new URL(String(response.headers.location), TEST_ORIGIN);
  expect(target.pathname).toBe("/reset-password");
  return target.searchParams.get("token") ?? "";
}

const reset = (token: string, password: string) =>
  ctx.app.inject({ method: "POST", url: "/api/password/reset", payload: { token, password } });

describe("password reset", () => {
  it("mails a link that sets the new password once and signs the user in", async () => {
    const user = await registerUser(ctx.app, "worker");
    const answer = await requestReset(user.email);
    expect(answer.statusCode).toBe(200);
    const mail = await waitForMail(user.email);
    expect(mail.subject).toBe("Reset your TaskMint password");
    const token = await tokenFromMail(mail);

    expect((await reset(token, "weak")).json()).toMatchObject({
      error: { details: { password: PASSWORD_RULE_MESSAGE } },
    });
    const done = await reset(token, "NewSecret9");
    expect(done.statusCode).toBe(200);
    const me = await ctx.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { cookie: sessionCookie(done) },
    });
    expect(me.json()).toMatchObject({ user: { email: user.email } });
    // The old session ended with the reset.
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: user.cookie } })).statusCode,
    ).toBe(401);
    expect((await signIn(ctx.app, user.email, user.password)).statusCode).toBe(401);
    expect((await signIn(ctx.app, user.email, "NewSecret9")).statusCode).toBe(200);

    const reused = await reset(token, "OtherSecret9");
    expect(reused.statusCode).toBe(400);
    expect((await signIn(ctx.app, user.email, "OtherSecret9")).statusCode).toBe(401);
  });

  it("refuses an expired link", async () => {
    const user = await registerUser(ctx.app, "buyer");
    await requestReset(user.email);
    const token = await tokenFromMail(await waitForMail(user.email));
    await ctx.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(like(verifications.identifier, "reset-password:%"));
    expect((await reset(token, "NewSecret9")).statusCode).toBe(400);
    expect((await signIn(ctx.app, user.email, user.password)).statusCode).toBe(200);
  });

  it("answers the same whether or not the email has an account, and mails only real accounts", async () => {
    const known = await registerUser(ctx.app, "worker");
    const resetMails = () => mail.inbox.filter((item) => item.subject.includes("Reset your")).length;
    const mailsBefore = resetMails();
    const forKnown = await requestReset(known.email);
    const forUnknown = await requestReset("nobody-here@example.com");
    expect(forUnknown.statusCode).toBe(forKnown.statusCode);
    expect(forUnknown.json()).toEqual(forKnown.json());
    await waitForMail(known.email);
    expect(resetMails()).toBe(mailsBefore + 1);
  });

  it("answers before the mail is sent: a slow mail server shows in no answer", async () => {
    const known = await registerUser(ctx.app, "worker");
    let release = () => undefined as void;
    mail.hold(new Promise<void>((resolve) => (release = resolve)));
    try {
      const answer = await requestReset(known.email);
      expect(answer.statusCode).toBe(200);
      // The answer is out while the mail server still holds the mail.
      expect(mail.mailsTo(known.email, "Reset your")).toEqual([]);
    } finally {
      release();
      mail.hold(null);
    }
    await waitForMail(known.email);
  });

  it("voids every older link and every other session when a newer link resets the password", async () => {
    const user = await registerUser(ctx.app, "worker");
    const otherSession = sessionCookie(await signIn(ctx.app, user.email, user.password));
    await requestReset(user.email);
    const older = await tokenFromMail(await waitForMail(user.email));
    mail.inbox.splice(0, mail.inbox.length);
    await requestReset(user.email);
    const newer = await tokenFromMail(await waitForMail(user.email));
    expect(newer).not.toBe(older);

    expect((await reset(newer, "NewSecret9")).statusCode).toBe(200);
    expect((await reset(older, "Hijacked9")).json()).toMatchObject({ error: { code: "VALIDATION" } });
    expect((await signIn(ctx.app, user.email, "Hijacked9")).statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie: otherSession } })).statusCode,
    ).toBe(401);
  });

  it("voids the links still out when the signed-in user changes the password", async () => {
    const user = await registerUser(ctx.app, "buyer");
    await requestReset(user.email);
    const token = await tokenFromMail(await waitForMail(user.email));
    const changed = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/change-password",
      headers: { cookie: user.cookie },
      payload: { currentPassword: user.password, newPassword: "Changed99" },
    });
    expect(changed.statusCode).toBe(200);
    expect((await reset(token, "Hijacked9")).statusCode).toBe(400);
    expect((await signIn(ctx.app, user.email, "Changed99")).statusCode).toBe(200);
  });

  it("applies the password rule when a signed-in user changes their password", async () => {
    const user = await registerUser(ctx.app, "worker");
    const change = (newPassword: string) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/auth/change-password",
        headers: { cookie: user.cookie },
        payload: { currentPassword: user.password, newPassword, revokeOtherSessions: false },
      });
    const weak = await change("alllowercase");
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ error: { message: PASSWORD_RULE_MESSAGE } });
    expect((await change("Better123")).statusCode).toBe(200);
    expect((await signIn(ctx.app, user.email, "Better123")).statusCode).toBe(200);
  });
});
