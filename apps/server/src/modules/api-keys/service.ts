import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, isNull, lte, or, sql } from "drizzle-orm";
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_SHOWN_LENGTH,
  MAX_API_KEYS_PER_BUYER,
  type ApiKey,
  type CreatedApiKey,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { apiKeys, users } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";

// Issue 35, item 1 (decision 033): a buyer's API keys.

/** A key's last use is written at most this often: no write per request. */
export const LAST_USED_PRECISION_MS = 60_000;

/** SHA-256 of a key, hex: how it is stored and looked up (a random 32-byte secret needs no slow hash). */
const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");

const apiKeyView = (row: typeof apiKeys.$inferSelect): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * POST /api/buyer/api-keys: a new key for the buyer, answered once with its secret. The buyer's
 * row is locked while the live keys are counted, so parallel requests cannot pass the limit.
 */
export async function createApiKey(
  db: Database,
  input: { buyerId: string; name: string; now: Date },
): Promise<CreatedApiKey> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.buyerId)).for("no key update");
    const live = await tx.$count(apiKeys, and(eq(apiKeys.buyerId, input.buyerId), isNull(apiKeys.revokedAt)));
    if (live >= MAX_API_KEYS_PER_BUYER)
      throw new AppError(
        "LIMIT_REACHED",
        `You have ${MAX_API_KEYS_PER_BUYER} API keys, the most one account may hold: revoke one you no longer use first`,
        { limit: MAX_API_KEYS_PER_BUYER },
      );
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    const [row] = await tx
      .insert(apiKeys)
      .values({
        id: randomUUID(),
        buyerId: input.buyerId,
        name: input.name,
        prefix: key.slice(0, API_KEY_SHOWN_LENGTH),
        secretHash: hashOf(key),
        createdAt: input.now,
      })
      .returning();
    return { id: row!.id, name: row!.name, key, created_at: row!.createdAt.toISOString() };
  });
}

/** GET /api/buyer/api-keys: the buyer's live keys, newest first (at most MAX_API_KEYS_PER_BUYER). */
export async function listApiKeys(db: Database, buyerId: string): Promise<ApiKey[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.buyerId, buyerId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(apiKeyView);
}

/** DELETE /api/buyer/api-keys/:id: revokes one of the buyer's live keys (another's, or one revoked: 404). */
export async function revokeApiKey(db: Database, input: { buyerId: string; keyId: string; now: Date }) {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: input.now })
    .where(and(eq(apiKeys.id, input.keyId), eq(apiKeys.buyerId, input.buyerId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw notFound("API key");
}

/** The key a request authenticated with, and the buyer it acts as. */
export interface KeyHolder {
  keyId: string;
  buyerId: string;
}

/**
 * Reads the key of a request in one prepared query, with no cache, so a revocation holds from
 * the next request: a live key whose owner is a live buyer (a deleted or demoted buyer's keys
 * stop working). Its last use is written when the stored one is a minute old (one conditional
 * update, so two servers write it once). Null for anything else, malformed keys included.
 */
export function createApiKeyReader(db: Database) {
  const byHash = db
    .select({ keyId: apiKeys.id, buyerId: apiKeys.buyerId, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.buyerId))
    .where(
      and(
        eq(apiKeys.secretHash, sql.placeholder("hash")),
        isNull(apiKeys.revokedAt),
        isNull(users.deletedAt),
        eq(users.role, "buyer"),
      ),
    )
    .prepare("api_key_by_hash");

  return async function readApiKey(key: string, now: Date): Promise<KeyHolder | null> {
    if (!API_KEY_PATTERN.test(key)) return null;
    const [row] = await byHash.execute({ hash: hashOf(key) });
    if (!row) return null;
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
      const stale = new Date(now.getTime() - LAST_USED_PRECISION_MS);
      await db
        .update(apiKeys)
        .set({ lastUsedAt: now })
        .where(
          and(eq(apiKeys.id, row.keyId), or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, stale))),
        );
    }
    return { keyId: row.keyId, buyerId: row.buyerId };
  };
}

export type ApiKeyReader = ReturnType<typeof createApiKeyReader>;
