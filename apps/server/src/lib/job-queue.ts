import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/client.ts";
import { jobs } from "../db/schema/index.ts";

// The durable job queue (issue 35, decision 034). A job is a row written with the change that
// causes it (pass the change's transaction), so a change that rolls back leaves none. Any
// server claims due jobs with FOR UPDATE SKIP LOCKED, each claim a lease: a server that dies
// mid-job leaves it to another once the lease runs out.

/** How long a claimed job is left to its server before another may take it again. */
export const JOB_LEASE_MS = 5 * 60_000;

/** NOTIFY'd with each queued batch: every server's worker wakes when the transaction commits. */
export const JOBS_CHANNEL = "jobs_queued";

export interface NewJob {
  kind: string;
  payload: unknown;
  now: Date;
  /** Not before this (default: now). */
  runAt?: Date;
}

/** Queues jobs in `db`, a transaction when they follow a change. */
export async function enqueueJobs(db: Database, list: NewJob[]) {
  if (list.length === 0) return;
  await db.insert(jobs).values(
    list.map((job) => ({
      id: randomUUID(),
      kind: job.kind,
      payload: job.payload,
      runAt: job.runAt ?? job.now,
      createdAt: job.now,
    })),
  );
  // A payload, as the listener passes on only notifications that carry one.
  await db.execute(sql`select pg_notify(${JOBS_CHANNEL}, 'queued')`);
}

/** A handler asks for its job to run again at a time of its choosing (its own back-off). */
export class RunAgainAt {
  constructor(
    readonly at: Date,
    readonly reason: string,
  ) {}
}

export interface JobHandler {
  /** Done when it resolves without a RunAgainAt; a throw is retried after `retryAfterMs[attempts - 1]`. */
  run(payload: unknown, context: { now: Date; attempts: number }): Promise<void | RunAgainAt>;
  /** The waits after each failed attempt; past the last, the job is given up (failed_at set). */
  retryAfterMs: readonly number[];
}

export interface JobRunCounts {
  done: number;
  retried: number;
  failed: number;
}

/**
 * Runs the jobs that are due, in batches, until none is: answers what became of them. A job of
 * an unknown kind (from a newer server) is left for a server that knows it, a lease later.
 */
export function jobRunner(options: {
  db: Database;
  clock: () => Date;
  handlers: Record<string, JobHandler>;
  log: FastifyBaseLogger;
  batch?: number;
  /** How many jobs run at once. */
  concurrency?: number;
}) {
  const { db, clock, handlers, log, batch = 20, concurrency = 4 } = options;
  const kinds = Object.keys(handlers);

  async function claim(now: Date) {
    return db
      .update(jobs)
      .set({ attempts: sql`${jobs.attempts} + 1`, runAt: new Date(now.getTime() + JOB_LEASE_MS) })
      .where(
        inArray(
          jobs.id,
          db
            .select({ id: jobs.id })
            .from(jobs)
            .where(and(isNull(jobs.failedAt), lte(jobs.runAt, now), inArray(jobs.kind, kinds)))
            .orderBy(jobs.runAt)
            .limit(batch)
            .for("update", { skipLocked: true }),
        ),
      )
      .returning({ id: jobs.id, kind: jobs.kind, payload: jobs.payload, attempts: jobs.attempts });
  }

  async function runOne(job: { id: string; kind: string; payload: unknown; attempts: number }) {
    const handler = handlers[job.kind]!;
    const now = clock();
    let outcome: void | RunAgainAt;
    try {
      outcome = await handler.run(job.payload, { now, attempts: job.attempts });
    } catch (error) {
      const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const wait = handler.retryAfterMs[job.attempts - 1];
      log.warn({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, "job failed");
      if (wait === undefined) {
        await db.update(jobs).set({ failedAt: clock(), lastError }).where(eq(jobs.id, job.id));
        return "failed";
      }
      outcome = new RunAgainAt(new Date(clock().getTime() + wait), lastError);
    }
    if (outcome instanceof RunAgainAt) {
      await db
        .update(jobs)
        .set({ runAt: outcome.at, lastError: outcome.reason.slice(0, 500) })
        .where(eq(jobs.id, job.id));
      return "retried";
    }
    await db.delete(jobs).where(eq(jobs.id, job.id));
    return "done";
  }

  return async function runDueJobs(): Promise<JobRunCounts> {
    const counts: JobRunCounts = { done: 0, retried: 0, failed: 0 };
    for (;;) {
      const claimed = await claim(clock());
      const full = claimed.length === batch;
      // A few at a time: each takes a connection now and then, and the pool is shared.
      const lanes = Array.from({ length: concurrency }, async () => {
        for (let job = claimed.shift(); job; job = claimed.shift()) counts[await runOne(job)] += 1;
      });
      await Promise.all(lanes);
      if (!full) return counts;
    }
  };
}
