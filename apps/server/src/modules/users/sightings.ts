import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../../db/client.ts";
import { signUpOrigins, userSightings } from "../../db/schema/index.ts";

// Where, on which device and in which browser accounts sign in, for the fraud signals on
// withdrawals (decision 017). The device is a random id in a long-lived cookie: it tells two
// accounts used in one browser apart from two strangers, and says nothing else about the person.
// The client can clear that cookie; the address and the browser (User-Agent) are what the server
// saw, kept for each session whatever the client does (issue 31).

export const DEVICE_COOKIE = "tm_device";
/** Browsers keep a cookie at most 400 days. */
const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 86_400;
const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The request's device id: the cookie's, or a new one the answer sets. */
export function deviceIdOf(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const sent = request.headers.cookie
    ?.split(";")
    .map((pair) => pair.trim())
    .find((pair) => pair.startsWith(`${DEVICE_COOKIE}=`))
    ?.slice(DEVICE_COOKIE.length + 1);
  if (sent && DEVICE_ID.test(sent)) return sent;
  const id = randomUUID();
  void reply.header(
    "set-cookie",
    `${DEVICE_COOKIE}=${id}; Path=/; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
  );
  return id;
}

/** A real User-Agent is 100 to 300 characters; what is longer is cut here. */
const USER_AGENT_KEPT = 512;

export interface Sighting {
  userId: string;
  deviceId: string;
  ip: string;
  /** The request's User-Agent header, if it sent one. */
  userAgent: string | undefined;
  now: Date;
}

/** Records that the user signed in from this device, address and browser; the first ever is their sign-up. */
export async function recordSighting(db: Database, sighting: Sighting): Promise<void> {
  const { userId, deviceId, now } = sighting;
  // An IPv4 client of a dual-stack socket arrives as ::ffff:a.b.c.d.
  const ip = sighting.ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  const userAgent = sighting.userAgent?.slice(0, USER_AGENT_KEPT) || null;
  await db
    .insert(userSightings)
    .values({ userId, deviceId, ip, userAgent, firstSeenAt: now, lastSeenAt: now })
    .onConflictDoUpdate({
      target: [userSightings.userId, userSightings.deviceId, userSightings.ip],
      set: { lastSeenAt: now, userAgent },
    });
  await db.insert(signUpOrigins).values({ userId, ip, deviceId, createdAt: now }).onConflictDoNothing();
}

/** Sessions this process has recorded, so a session is recorded once, on its first request here. */
const SEEN_SESSIONS_KEPT = 10_000;

export function createSightingRecorder(db: Database) {
  const seenSessions = new Set<string>();
  return async (sessionId: string, sighting: Omit<Sighting, "now">, now: Date) => {
    if (seenSessions.has(sessionId)) return;
    await recordSighting(db, { ...sighting, now });
    if (seenSessions.size >= SEEN_SESSIONS_KEPT) seenSessions.clear();
    seenSessions.add(sessionId);
  };
}
export type SightingRecorder = ReturnType<typeof createSightingRecorder>;
