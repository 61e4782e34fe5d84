import type { FastifyBaseLogger } from "fastify";

/**
 * Work that runs after the answer was sent (mail, for one), so that how long it takes tells
 * the client nothing. Failures are logged; closing the app waits for what is still running.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  run(what: string, work: () => Promise<unknown>) {
    // Past close, the database is going away: the work would only fail.
    if (this.closed) return this.log.warn({ what }, "background work refused: closing");
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .then(
        () => undefined,
        (error: unknown) => this.log.error({ err: error, what }, "background work failed"),
      )
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async drain() {
    this.closed = true;
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
