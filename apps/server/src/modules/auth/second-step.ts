import { createHmac, timingSafeEqual } from "node:crypto";
import type { GenericEndpointContext } from "better-auth";
import { deleteSessionCookie, parseCookies } from "better-auth/cookies";
import { generateRandomString, symmetricDecrypt } from "better-auth/crypto";
import { and, eq, gt, ne, sql } from "drizzle-orm";
import { paths } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { sessions, twoFactors, verifications } from "../../db/schema/index.ts";
import { rowsOf } from "../../lib/db-errors.ts";
import { AppError } from "../../lib/errors.ts";
import { signedCookieValue } from "./session-reader.ts";

// Rule R30 and decision 026: what the auth library's second step leaves open, closed here. Each
// code is counted before it is judged (parallel guesses cannot outrun the lock), a TOTP time step
// is accepted once (RFC 6238, 5.2), a session records whether it passed a second factor, and a
// Google sign-in goes through the same second step as a password sign-in.

export const SECOND_STEP_RULES = {
  /** Wrong codes in a row that lock an account's second step. */
  wrongCodesBeforeLock: 10,
  lockMinutes: 15,
  /** RFC 6238's time step, and the steps either side of now that the library accepts. */
  stepSeconds: 30,
  stepWindow: 1,
} as const;

/** The library's paths that verify a second factor; a session they make passed it. */
const SECOND_FACTOR_PATHS = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code"]);

/** The plugin's challenge cookie, set when a sign-in needs its second step. */
const CHALLENGE_COOKIE = "two_factor";
/** How long a challenge lasts: the plugin's default, which the password sign-in uses too. */
const CHALLENGE_SECONDS = 600;

/**
 * Whether a session the library is making passed a second factor: made by a verify route, or
 * replacing one that had (a password change replaces the caller's session).
 */
export function passedSecondFactor(context: GenericEndpointContext | null): boolean {
  if (!context) return false;
  if (SECOND_FACTOR_PATHS.has(context.path)) return true;
  const current = context.context.session?.session as { twoFactorVerified?: boolean } | undefined;
  return context.path === "/change-password" && current?.twoFactorVerified === true;
}

/**
 * After Google's callback: a user with two-factor on gets the plugin's challenge instead of the
 * session (as the plugin does for a password sign-in), and is sent to the sign-in page's code step.
 */
export async function challengeGoogleSignIn(ctx: GenericEndpointContext, publicUrl: string) {
  const made = ctx.context.newSession;
  if (!made || !(made.user as { twoFactorEnabled?: boolean }).twoFactorEnabled) return;
  deleteSessionCookie(ctx, true);
  await ctx.context.internalAdapter.deleteSession(made.session.token);
  ctx.context.setNewSession(null);
  const identifier = `2fa-${generateRandomString(20)}`;
  const expiresAt = new Date(Date.now() + CHALLENGE_SECONDS * 1000);
  await ctx.context.internalAdapter.createVerificationValue({ value: made.user.id, identifier, expiresAt });
  // The plugin counts each challenge's codes in this row; without it the challenge is refused.
  await ctx.context.internalAdapter.createVerificationValue({
    value: "0",
    identifier: `2fa-attempts-${identifier}`,
    expiresAt,
  });
  const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE, { maxAge: CHALLENGE_SECONDS });
  await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
  throw ctx.redirect(
    `${publicUrl}${paths.login}?second_step=1&from=${encodeURIComponent(returnTo(ctx, publicUrl))}`,
  );
}

/** The page the callback was about to send the browser to, as a path of this site. */
function returnTo(ctx: GenericEndpointContext, publicUrl: string): string {
  // An after hook sees what the endpoint answered: the callback's redirect, as an error carrying its headers.
  const returned = (ctx.context as { returned?: { headers?: Headers } }).returned;
  const location = returned?.headers?.get("location");
  if (!location || !URL.canParse(location, publicUrl)) return paths.dashboard.root;
  const url = new URL(location, publicUrl);
  return url.origin === new URL(publicUrl).origin ? `${url.pathname}${url.search}` : paths.dashboard.root;
}

/** The HOTP value of `counter` (RFC 4226) for a key, as the library computes it: 6 digits of HMAC-SHA1. */
export function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** The bytes of a base32 text (RFC 4648, padding optional). */
export function base32Bytes(text: string): Buffer {
  let bits = "";
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
}

/** The library keeps a TOTP secret encrypted; older secrets are base32 under a prefix, newer ones used as text. */
async function totpKey(encrypted: string, secretKey: string): Promise<Buffer> {
  const secret = await symmetricDecrypt({ key: secretKey, data: encrypted });
  return secret.startsWith("base32:") ? base32Bytes(secret.slice("base32:".length)) : Buffer.from(secret);
}

const codeMatches = (code: string, expected: string) =>
  code.length === expected.length && timingSafeEqual(Buffer.from(code), Buffer.from(expected));

export function createSecondStepGuard(db: Database, authSecret: string) {
  /** The user a sign-in's challenge cookie was made for, while it lasts. */
  async function challengeUser(headers: Headers, cookieName: string, now: Date): Promise<string | null> {
    const signed = parseCookies(headers.get("cookie") ?? "").get(cookieName);
    const identifier = signed ? signedCookieValue(signed, authSecret) : null;
    if (!identifier) return null;
    const [row] = await db
      .select({ userId: verifications.value })
      .from(verifications)
      .where(and(eq(verifications.identifier, identifier), gt(verifications.expiresAt, now)));
    return row?.userId ?? null;
  }

  /**
   * Counts a code before it is judged, in one statement: once the wrong codes in a row reach the
   * limit, the account's second step is locked, and parallel codes past the limit are refused
   * unjudged. A right code resets the count (`codeAccepted`). Answers the seconds the lock has
   * left when this code may not be judged, else null.
   */
  async function claimCodeAttempt(userId: string, now: Date): Promise<number | null> {
    const { wrongCodesBeforeLock: limit, lockMinutes } = SECOND_STEP_RULES;
    const [claimed] = rowsOf<{ attempts: number; locked_until: Date | string | null }>(
      await db.execute(sql`
        update two_factors set
          failed_verification_count =
            case when locked_until <= ${now} then 1 else failed_verification_count + 1 end,
          locked_until = case
            when locked_until <= ${now} then null
            when locked_until is null and failed_verification_count + 1 >= ${limit}
              then ${now}::timestamptz + make_interval(mins => ${lockMinutes})
            else locked_until end
        where user_id = ${userId}
        returning failed_verification_count as attempts, locked_until`),
    );
    if (!claimed || claimed.attempts <= limit) return null;
    const lockedUntil = new Date(claimed.locked_until ?? now).getTime();
    return Math.max(1, Math.ceil((lockedUntil - now.getTime()) / 1000));
  }

  async function codeAccepted(userId: string): Promise<void> {
    await db
      .update(twoFactors)
      .set({ failedVerificationCount: 0, lockedUntil: null })
      .where(eq(twoFactors.userId, userId));
  }

  /**
   * Refuses a TOTP code whose time step was accepted before (or an older one), and takes the
   * step of a code that matches, atomically: two requests with one code cannot both pass. A code
   * that matches no step goes on to the library, which refuses it as wrong.
   */
  async function claimTotpStep(userId: string, code: string, at: number): Promise<void> {
    const [row] = await db
      .select({ secret: twoFactors.secret })
      .from(twoFactors)
      .where(eq(twoFactors.userId, userId));
    if (!row) return;
    const key = await totpKey(row.secret, authSecret);
    const { stepSeconds, stepWindow } = SECOND_STEP_RULES;
    const now = Math.floor(at / (stepSeconds * 1000));
    let step: number | null = null;
    for (let candidate = now - stepWindow; candidate <= now + stepWindow; candidate++)
      if (codeMatches(code, hotp(key, candidate))) step = candidate;
    if (step === null) return;
    const taken = await db
      .update(twoFactors)
      .set({ lastTotpStep: step })
      .where(
        and(
          eq(twoFactors.userId, userId),
          sql`(${twoFactors.lastTotpStep} is null or ${twoFactors.lastTotpStep} < ${step})`,
        ),
      )
      .returning({ id: twoFactors.id });
    if (taken.length === 0)
      throw new AppError(
        "UNAUTHENTICATED",
        "This code was already used. Wait for your app to show the next one",
        { reason: "CODE_ALREADY_USED" },
      );
  }

  /** A signed-in session that confirmed a code now counts as having passed the second factor. */
  async function markSessionVerified(sessionId: string): Promise<void> {
    await db.update(sessions).set({ twoFactorVerified: true }).where(eq(sessions.id, sessionId));
  }

  /** Turning two-factor on ends every other session of the account (rule R30). */
  async function endOtherSessions(userId: string, keptToken: string): Promise<void> {
    await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.token, keptToken)));
  }

  return {
    challengeUser,
    claimCodeAttempt,
    codeAccepted,
    claimTotpStep,
    markSessionVerified,
    endOtherSessions,
  };
}

export type SecondStepGuard = ReturnType<typeof createSecondStepGuard>;
