import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/client.ts";
import { deleteExpiredIdempotencyKeys } from "../lib/idempotency.ts";
import { JOBS_CHANNEL } from "../lib/job-queue.ts";
import { deleteEndedRateLimitWindows } from "../lib/rate-limit-store.ts";
import { failAbandonedPurchases } from "../modules/payments/service.ts";
import { expireReservations } from "../modules/reservations/service.ts";
import { autoApproveDue } from "../modules/submissions/service.ts";
import { expireTasks } from "../modules/tasks/service.ts";
import { refreshBuyerReputations } from "../modules/trust/service.ts";

/**
 * Runs auto-approval (rule R6), task expiry (rule R9), reservation expiry (rule R20), the failing of
 * abandoned purchases and the refresh of buyers' reputations (rule R21) every `intervalMs`. Each job is safe to run in several server processes at once: a
 * decision, a closing or a failing happens once.
 */
export function startJobs(options: {
  db: Database;
  log: FastifyBaseLogger;
  clock: () => Date;
  intervalMs: number;
  /** Told when a run approved or closed something the public task list shows. */
  onTasksChanged: () => void;
}) {
  const { db, log, clock } = options;
  return repeat(async () => {
    try {
      const approved = await autoApproveDue(db, clock());
      const closed = await expireTasks(db, clock());
      const released = await expireReservations(db, clock());
      const abandoned = await failAbandonedPurchases(db, clock());
      const reputations = await refreshBuyerReputations(db, clock());
      await deleteExpiredIdempotencyKeys(db, clock());
      await deleteEndedRateLimitWindows(db);
      if (approved > 0 || closed > 0 || released > 0 || reputations > 0) options.onTasksChanged();
      if (approved > 0 || closed > 0 || released > 0 || abandoned > 0)
        log.info({ approved, closed, released, abandoned }, "background jobs ran");
    } catch (error) {
      log.error({ err: error }, "background jobs failed; retrying on the next tick");
    }
  }, options.intervalMs);
}

/** Runs the queue's due jobs (decision 034) now and every `intervalMs`, logging what became of them. */
export async function startJobWorker(options: {
  runJobs: () => Promise<{ done: number; retried: number; failed: number }>;
  log: FastifyBaseLogger;
  intervalMs: number;
  /** LISTENs on a channel; answers the unsubscribe (DbHandle.listen). */
  listen: (channel: string, wake: () => void) => Promise<() => Promise<void>>;
}) {
  const { runJobs, log } = options;
  const worker = repeat(async () => {
    try {
      const counts = await runJobs();
      if (counts.retried + counts.failed > 0) log.info(counts, "jobs ran");
    } catch (error) {
      log.error({ err: error }, "running the job queue failed; retrying on the next tick");
    }
  }, options.intervalMs);
  // A job queued by any server wakes every worker as its transaction commits.
  const unlisten = await options.listen(JOBS_CHANNEL, () => worker.wake());
  return {
    async stop() {
      await unlisten();
      await worker.stop();
    },
  };
}

/**
 * Runs `runOnce` now and every `intervalMs`, never two at once (a slow run skips ticks).
 * `wake` runs it at once, or right after the run in progress (which may have missed what woke it).
 * `runOnce` handles its own errors.
 */
export function repeat(runOnce: () => Promise<void>, intervalMs: number) {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const tick = () => {
    running ??= runOnce().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        tick();
      }
    });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();

  return {
    wake() {
      if (stopped) return;
      if (running) again = true;
      else tick();
    },
    /** Stops the timer and waits for a run in progress. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}
