import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, isNull, lt } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { idempotencyKeys } from "../db/schema/index.ts";
import { AppError } from "./errors.ts";

// Issue 35 point 2 (decision 036): every POST an API key can make honours an Idempotency-Key.
// Claim-then-complete: the first request claims (owner, key) with the request's fingerprint,
// runs, and stores its answer; a retry with the same key and request answers that answer; one
// arriving while the first runs waits for it. Only successes are kept: a failed action changed
// nothing (one transaction), so its claim is deleted and a retry runs again.

/** How long a key is kept: after this it is forgotten, and the same key is a new request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a first request's claim holds; one older (its server died) is taken over. */
const CLAIM_MS = 10 * 60 * 1000;
/** How long a retry waits for the first request's answer before giving up (real time). */
const WAIT_MS = 60_000;

export interface StoredAnswer {
  status: number;
  answer: unknown;
}

/** The same request, as far as a key is concerned: method, path and query, and body. */
export function fingerprintOf(parts: { method: string; url: string; body: unknown }) {
  return createHash("sha256")
    .update(`${parts.method} ${parts.url}\n${stableJson(parts.body)}`)
    .digest("hex");
}

/** JSON with every object's keys sorted, so key order never makes two bodies differ. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

const mismatch = () =>
  new AppError(
    "IDEMPOTENCY_MISMATCH",
    "This Idempotency-Key was already used for a different request (another body or another operation): use a new key for a new request",
  );

/**
 * Runs `action` once per (owner, key) within 24 hours: answers the stored answer of an earlier
 * success with the same fingerprint (`replayed`), 409 IDEMPOTENCY_MISMATCH for another
 * fingerprint, and waits while another request with the key runs.
 */
export async function runOnce(
  db: Database,
  request: { ownerId: string; key: string; fingerprint: string; clock: () => Date },
  action: () => Promise<StoredAnswer>,
): Promise<StoredAnswer & { replayed: boolean }> {
  const { ownerId, key, fingerprint, clock } = request;
  const row = and(eq(idempotencyKeys.ownerId, ownerId), eq(idempotencyKeys.key, key));
  const waitUntil = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    const now = clock();
    const [claimed] = await db
      .insert(idempotencyKeys)
      .values({ ownerId, key, fingerprint, createdAt: now, claimedUntil: new Date(now.getTime() + CLAIM_MS) })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed) return { ...(await complete(db, row, action)), replayed: false };
    const [first] = await db.select().from(idempotencyKeys).where(row);
    if (!first) continue; // released or expired between the two statements: claim again
    if (first.createdAt.getTime() <= now.getTime() - IDEMPOTENCY_KEY_TTL_MS) {
      await db.delete(idempotencyKeys).where(and(row, eq(idempotencyKeys.createdAt, first.createdAt)));
      continue;
    }
    if (first.fingerprint !== fingerprint) throw mismatch();
    if (first.status !== null) return { status: first.status, answer: first.answer, replayed: true };
    if (first.claimedUntil <= now) {
      const [taken] = await db
        .update(idempotencyKeys)
        .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS) })
        .where(and(row, isNull(idempotencyKeys.status), eq(idempotencyKeys.claimedUntil, first.claimedUntil)))
        .returning({ key: idempotencyKeys.key });
      if (taken) return { ...(await complete(db, row, action)), replayed: false };
      continue;
    }
    if (Date.now() > waitUntil)
      throw new AppError(
        "CONFLICT",
        "A request with this Idempotency-Key is still running: retry it in a moment to get its answer",
      );
    await sleep(Math.min(25 * 2 ** Math.min(attempt, 3), 200));
  }
}

/** Runs the claimed action: stores a success's answer, releases the claim of a failure. */
async function complete(
  db: Database,
  row: ReturnType<typeof and>,
  action: () => Promise<StoredAnswer>,
): Promise<StoredAnswer> {
  let result: StoredAnswer;
  try {
    result = await action();
  } catch (error) {
    await db.delete(idempotencyKeys).where(and(row, isNull(idempotencyKeys.status)));
    throw error;
  }
  if (result.status >= 300) {
    await db.delete(idempotencyKeys).where(and(row, isNull(idempotencyKeys.status)));
    return result;
  }
  await db
    .update(idempotencyKeys)
    .set({ status: result.status, answer: result.answer ?? null })
    .where(row);
  return result;
}

/** Forgets the keys older than 24 hours (an interval job); answers how many. */
export async function deleteExpiredIdempotencyKeys(db: Database, now: Date) {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
