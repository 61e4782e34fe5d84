import { and, eq, gte, isNull, notExists, sql, type SQL } from "drizzle-orm";
import { isoDate } from "@taskmint/shared";
import type { Database } from "../db/client.ts";
import { submissions, tasks } from "../db/schema/index.ts";

/**
 * Rules R3 and R20: takes one open slot of a task for a worker with one conditional update:
 * the task is open, live, not past its date, has a slot, the worker has not submitted to it,
 * and `unless` (a further condition) holds. Answers what the caller needs of the task, or
 * nothing when the slot was not taken (the caller says why).
 */
export async function takeOpenSlot(
  db: Database,
  take: { taskId: string; workerId: string; now: Date; unless?: SQL },
) {
  const { taskId, workerId, now } = take;
  const [task] = await db
    .update(tasks)
    .set({ requiredWorkers: sql`${tasks.requiredWorkers} - 1` })
    .where(
      and(
        eq(tasks.id, taskId),
        eq(tasks.status, "open"),
        isNull(tasks.deletedAt),
        gte(tasks.completionDate, isoDate(now)),
        sql`${tasks.requiredWorkers} > 0`,
        // A repeat by the same worker takes no slot; the unique index still decides races.
        notExists(
          db
            .select({ one: sql`1` })
            .from(submissions)
            .where(and(eq(submissions.taskId, taskId), eq(submissions.workerId, workerId))),
        ),
        take.unless,
      ),
    )
    .returning({
      buyerId: tasks.buyerId,
      title: tasks.title,
      timeLimitMinutes: tasks.timeLimitMinutes,
      proofImages: tasks.proofImages,
    });
  return task;
}
