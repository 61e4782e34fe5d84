import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { hashPassword } from "better-auth/crypto";
import { SIGNUP_BONUS, type RegisterFields, type Role, type User } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { accounts, ledgerAccounts, users } from "../../db/schema/index.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { MINT, openAccount, transfer, walletKeySql, walletOf } from "../ledger/service.ts";
import { fetchRemoteImage, processImage, storeImage, type ProcessedImage } from "../uploads/service.ts";

/** Opens the user's wallet and, for workers and buyers, grants rule R1's coins (once per user, ever). */
export async function grantSignupBonus(db: Database, userId: string, role: Role): Promise<void> {
  await openAccount(db, { kind: "wallet", ownerKey: walletOf(userId), userId });
  if (role === "admin") return;
  await transfer(db, {
    from: MINT,
    to: walletOf(userId),
    amount: SIGNUP_BONUS[role],
    idempotencyKey: `signup:${userId}`,
  });
}

/**
 * Rule R18 for a Google sign-up: fetches the photo the provider names once, re-encodes and
 * stores it like a registration photo, and makes it the user's photo; or leaves them without
 * one, answering why, when it cannot be fetched or is not an image. Never the foreign URL.
 */
export async function adoptRemotePhoto(
  db: Database,
  userId: string,
  url: string,
): Promise<{ photo: string } | { photo: null; reason: string }> {
  let image: ProcessedImage;
  try {
    image = await processImage(await fetchRemoteImage(url));
  } catch (error) {
    return { photo: null, reason: error instanceof Error ? error.message : String(error) };
  }
  const photo = await db.transaction(async (tx) => {
    const stored = await storeImage(tx, image);
    await tx
      .update(users)
      .set({ image: stored, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    return stored;
  });
  return { photo };
}

interface NewPasswordUser {
  name: string;
  email: string;
  password: string;
  role: Role;
  image: string | null;
}

/** Inserts a user who signs in with email and password; the caller's transaction keeps it atomic. */
async function insertPasswordUser(db: Database, user: NewPasswordUser): Promise<string> {
  const id = randomUUID();
  const passwordHash = await hashPassword(user.password);
  try {
    await db
      .insert(users)
      .values({ id, name: user.name, email: user.email, role: user.role, image: user.image });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("EMAIL_TAKEN", "An account with this email already exists");
    throw error;
  }
  await db.insert(accounts).values({
    id: randomUUID(),
    accountId: id,
    providerId: "credential",
    userId: id,
    password: passwordHash,
  });
  return id;
}

async function emailTaken(db: Database, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return Boolean(row);
}

/**
 * POST /api/register: the account, its photo if one was sent (rule R29: optional) and its
 * starting coins, in one transaction. A photo is checked before the email is looked up, so a
 * cheap request with a junk photo cannot tell a taken address from a free one.
 */
export async function registerUser(
  db: Database,
  fields: RegisterFields,
  photo: Buffer | undefined,
): Promise<User> {
  const image = photo ? await processImage(photo) : null;
  if (await emailTaken(db, fields.email)) {
    throw new AppError("EMAIL_TAKEN", "An account with this email already exists");
  }
  const userId = await db.transaction(async (tx) => {
    const photoUrl = image ? await storeImage(tx, image) : null;
    const id = await insertPasswordUser(tx, { ...fields, image: photoUrl });
    await grantSignupBonus(tx, id, fields.role);
    return id;
  });
  return getUser(db, userId);
}

/**
 * Marks an address confirmed without a mail: for the demo accounts, whose example.com
 * addresses receive nothing, and for test fixtures. Users confirm theirs through the link.
 */
export async function markEmailVerified(db: Database, userId: string) {
  await db
    .update(users)
    .set({ emailVerified: true, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** Creates the admin, or makes an existing account an admin; used at start-up and by `npm run create-admin`. */
export async function ensureAdmin(
  db: Database,
  admin: { email: string; password: string; name?: string },
): Promise<{ created: boolean; userId: string }> {
  const email = admin.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(eq(users.email, email));
    if (existing) {
      if (existing.role !== "admin")
        await tx
          .update(users)
          .set({ role: "admin", updatedAt: sql`now()` })
          .where(eq(users.id, existing.id));
      return { created: false, userId: existing.id };
    }
    const userId = await insertPasswordUser(tx, {
      name: admin.name ?? "Admin",
      email,
      password: admin.password,
      role: "admin",
      image: null,
    });
    await grantSignupBonus(tx, userId, "admin");
    return { created: true, userId };
  });
}

/** Users with the coins of their wallet, for toUser (and the admin's view, which adds the sign-up date). */
export const selectUsersWithCoins = (db: Database) =>
  db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      photo: users.image,
      role: users.role,
      coins: ledgerAccounts.balance,
      two_factor_enabled: users.twoFactorEnabled,
      email_verified: users.emailVerified,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(ledgerAccounts, eq(ledgerAccounts.ownerKey, walletKeySql(users.id)));

type UserRow = Awaited<ReturnType<ReturnType<typeof selectUsersWithCoins>["execute"]>>[number];

export const toUser = ({ createdAt: _createdAt, coins, ...row }: UserRow): User => ({
  ...row,
  coins: coins ?? 0,
});

/** A user as the API shows it, with the coins of their wallet. */
export async function getUser(db: Database, userId: string): Promise<User> {
  const [row] = await selectUsersWithCoins(db).where(eq(users.id, userId));
  if (!row) throw notFound("User");
  return toUser(row);
}

/** PATCH /api/me: name and photo only (never role or coins). */
export async function updateProfile(
  db: Database,
  userId: string,
  change: { name?: string; photo?: Buffer },
): Promise<User> {
  const image = change.photo ? await processImage(change.photo) : null;
  await db.transaction(async (tx) => {
    const photoUrl = image ? await storeImage(tx, image) : undefined;
    await tx
      .update(users)
      .set({
        ...(change.name ? { name: change.name } : {}),
        ...(photoUrl ? { image: photoUrl } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, userId));
  });
  return getUser(db, userId);
}
