import { DAY_MS } from "@taskmint/shared";
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getSessionCookie } from "better-auth/cookies";
import type { Role } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { sessions, users } from "../../db/schema/index.ts";

/** The auth library's session.updateAge default: past it, a session is extended on use. */
const SESSION_REFRESH_AFTER_MS = DAY_MS;

export type SessionRead =
  | { id: string; role: Role; sessionId: string; twoFactorEnabled: boolean; twoFactorVerified: boolean }
  | null
  | "refresh";

/**
 * Reads the signed-in user of a request in one prepared query: the session cookie's HMAC
 * checked as the auth library signs it (HMAC-SHA256 of the token with the auth secret), then
 * the live session and its undeleted user. Answers "refresh" when the session is due to be
 * extended, which only the auth library does; every other request skips its heavier path.
 */
export function createSessionReader(db: Database, secret: string) {
  const byToken = db
    .select({
      id: users.id,
      role: users.role,
      sessionId: sessions.id,
      twoFactorEnabled: users.twoFactorEnabled,
      twoFactorVerified: sessions.twoFactorVerified,
      expiresAt: sessions.expiresAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.token, sql.placeholder("token")), isNull(users.deletedAt)))
    .prepare("session_by_token");

  return async function readSession(headers: Headers, now: Date): Promise<SessionRead> {
    const token = sessionTokenOf(headers, secret);
    if (!token) return null;
    const [row] = await byToken.execute({ token });
    if (!row || row.expiresAt <= now) return null;
    if (now.getTime() - row.updatedAt.getTime() > SESSION_REFRESH_AFTER_MS) return "refresh";
    const { id, role, sessionId, twoFactorEnabled, twoFactorVerified } = row;
    return { id, role, sessionId, twoFactorEnabled, twoFactorVerified };
  };
}

/**
 * The session token of the request's cookie when its signature is the auth library's: HMAC-SHA256
 * of the token with the secret, in base64, after a dot. session-reader.test.ts pins this to the
 * library's own signer, so an upgrade that signs differently fails CI instead of signing everyone out.
 */
export function sessionTokenOf(headers: Headers, secret: string): string | null {
  const cookie = getSessionCookie(headers);
  return cookie ? signedCookieValue(cookie, secret) : null;
}

/** The value of a cookie the auth library signed (`value.signature`), or null when the signature is not its. */
export function signedCookieValue(cookie: string, secret: string): string | null {
  const dot = cookie.lastIndexOf(".");
  if (dot < 1) return null;
  const token = cookie.slice(0, dot);
  const signature = Buffer.from(cookie.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", secret).update(token).digest("base64"));
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
}
