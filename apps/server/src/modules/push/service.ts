import type { PushPayload } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { enqueueJobs } from "../../lib/job-queue.ts";

// Web Push to a user's devices (issue 36, point 5).

/** The job kind that pushes one payload to one user's devices (read when the job runs). */
export const PUSH_JOB = "push";

export interface PushJobPayload {
  userId: string;
  payload: PushPayload;
}

/** Queues a push to the user's devices in `db`, the transaction of the change that causes it. */
export async function queuePush(
  db: Database,
  push: { userId: string; payload: PushPayload; now: Date },
): Promise<void> {
  const job: PushJobPayload = { userId: push.userId, payload: push.payload };
  await enqueueJobs(db, [{ kind: PUSH_JOB, payload: job, now: push.now }]);
}
