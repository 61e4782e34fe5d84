import type { Database } from "../db/client.ts";
import { enqueueJobs } from "../lib/job-queue.ts";

// Issue 36 (decision 037): posting tasks, one or a batch, announces them on the job queue, and
// the saved searches' alerts follow from that job. The tasks module queues it and the
// saved-searches module handles it, so neither imports the other the wrong way round.

/** The job that alerts the saved searches the posted tasks match. */
export const TASKS_POSTED_JOB = "tasks_posted";

export interface TasksPosted {
  taskIds: string[];
}

/** Queues one job naming the posted tasks, in the posting's transaction: a posting that rolls back alerts nobody. */
export function queueTasksPosted(tx: Database, posted: { taskIds: string[]; now: Date }) {
  const payload: TasksPosted = { taskIds: posted.taskIds };
  return enqueueJobs(tx, [{ kind: TASKS_POSTED_JOB, payload, now: posted.now }]);
}
