import { randomUUID } from "node:crypto";
import type { Database } from "../../db/client.ts";
import { notifications } from "../../db/schema/index.ts";

/** Records a message for a user, in the caller's transaction so it exists exactly when the event does. */
export async function notify(db: Database, userId: string, message: string, actionRoute: string): Promise<void> {
  await db.insert(notifications).values({ id: randomUUID(), userId, message, actionRoute });
}
