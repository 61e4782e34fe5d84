import { and, eq, like } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { verifications } from "../../db/schema/index.ts";

/** The prefix the auth library gives the verification rows of password reset links. */
const RESET_LINK_PREFIX = "reset-password:";

/** Voids every password reset link still out for the user: a new password makes older links worthless. */
export async function voidPasswordResetLinks(db: Database, userId: string): Promise<number> {
  const voided = await db
    .delete(verifications)
    .where(and(like(verifications.identifier, `${RESET_LINK_PREFIX}%`), eq(verifications.value, userId)))
    .returning({ id: verifications.id });
  return voided.length;
}
