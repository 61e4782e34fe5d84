import webPush from "web-push";
import type { Database } from "../../db/client.ts";
import { vapidKeys } from "../../db/schema/index.ts";
import type { Env } from "../../env.ts";

/** What signs our pushes (RFC 8292): the key pair, and whom a push service may contact about them. */
export interface Vapid {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** The address in MAIL_FROM ("TaskMint <no-reply@taskmint.local>" or a bare address). */
const mailFromAddress = (mailFrom: string) => /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();

/**
 * VAPID_SUBJECT, else a mailto: of the admin's address, else PUBLIC_URL when it is https (push
 * services accept only those two kinds), else a mailto: of MAIL_FROM's address.
 */
export function vapidSubject(env: Env): string {
  if (env.VAPID_SUBJECT) return env.VAPID_SUBJECT;
  if (env.ADMIN_EMAIL) return `mailto:${env.ADMIN_EMAIL}`;
  if (env.PUBLIC_URL.startsWith("https:")) return new URL(env.PUBLIC_URL).origin;
  return `mailto:${mailFromAddress(env.MAIL_FROM)}`;
}

/**
 * The VAPID keys from the environment, or the pair kept in the database: made on the first start
 * and inserted if none is there yet, then read back, so that servers starting at once on one
 * database all sign with the one that was kept (the browsers' subscriptions are bound to it).
 */
export async function loadVapid(db: Database, env: Env, now: Date): Promise<Vapid> {
  const subject = vapidSubject(env);
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY)
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  const made = webPush.generateVAPIDKeys();
  await db
    .insert(vapidKeys)
    .values({ publicKey: made.publicKey, privateKey: made.privateKey, createdAt: now })
    .onConflictDoNothing();
  const [kept] = await db
    .select({ publicKey: vapidKeys.publicKey, privateKey: vapidKeys.privateKey })
    .from(vapidKeys);
  if (!kept) throw new Error("The VAPID key pair was inserted but cannot be read back");
  return { ...kept, subject };
}
