import { randomBytes } from "node:crypto";
import { count } from "drizzle-orm";
import type { Database } from "./db/client.ts";
import { users } from "./db/schema/index.ts";
import type { Env } from "./env.ts";
import { seedDemo, type DemoAccount } from "./seed/demo.ts";
import { ensureAdmin } from "./modules/users/service.ts";

export interface StartupReport {
  /** Accounts whose credentials should be printed (made on this start). */
  newAccounts: DemoAccount[];
}

/**
 * What start-up does to the data: the admin from ADMIN_EMAIL/ADMIN_PASSWORD, and on an
 * empty database (embedded by default, or when SEED_DEMO says so) a first admin and demo data.
 */
export async function prepareData(
  db: Database,
  env: Env,
  kind: "pglite" | "postgres",
): Promise<StartupReport> {
  const [{ users: userCount } = { users: 0 }] = await db.select({ users: count() }).from(users);
  const empty = userCount === 0;
  const newAccounts: DemoAccount[] = [];

  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    const admin = await ensureAdmin(db, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
    if (admin.created)
      newAccounts.push({ role: "admin", email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
  }

  const seed = env.SEED_DEMO ?? (empty && kind === "pglite");
  if (seed && empty) {
    if (!env.ADMIN_EMAIL) {
      const password = `Admin-${randomBytes(6).toString("base64url")}`;
      await ensureAdmin(db, { email: "admin@taskmint.local", password });
      newAccounts.push({ role: "admin", email: "admin@taskmint.local", password });
    }
    newAccounts.push(...(await seedDemo(db, new Date())));
  }
  return { newAccounts };
}
