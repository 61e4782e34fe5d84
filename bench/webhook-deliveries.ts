// Issue 35: how many signed webhook deliveries a server's job worker sends a second. Runs after
// the benchmark's server has stopped, in this process, on the same database: `count` events are
// queued for one endpoint (a local receiver that answers 204), then the app's own job runner
// (webhookJob on jobRunner, four at a time, as every server runs it) delivers them all. The
// bench server cannot do it itself: in production it refuses loopback addresses (decision 035).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import {
  WEBHOOK_JOB,
  createWebhook,
  queueWebhookEvent,
  webhookJob,
} from "../apps/server/src/modules/webhooks/service.ts";
import { jobRunner } from "../apps/server/src/lib/job-queue.ts";
import type { Database } from "../apps/server/src/db/client.ts";
import { webhookDeliveries } from "../apps/server/src/db/schema/index.ts";
import type { DeliveryAttempt } from "@taskmint/shared";

export async function measureWebhookDeliveries(db: Database, buyerId: string, count: number) {
  let received = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  try {
    await createWebhook(db, {
      buyerId,
      url: `http://127.0.0.1:${port}/hooks`,
      events: ["submission.created"],
      now: new Date(),
      production: false,
    });
    for (let n = 0; n < count; n += 1)
      await queueWebhookEvent(db, {
        buyerId,
        type: "submission.created",
        data: { submission_id: `bench-${n}` },
        now: new Date(),
      });
    const run = jobRunner({
      db,
      clock: () => new Date(),
      handlers: { [WEBHOOK_JOB]: webhookJob({ db, production: false }) },
      log: pino({ level: "warn" }),
    });
    const started = performance.now();
    let done = 0;
    while (done < count) {
      const counts = await run();
      if (counts.done + counts.retried + counts.failed === 0) break;
      done += counts.done;
    }
    const seconds = (performance.now() - started) / 1000;
    // Each attempt's own time (the signed POST and its answer), as the delivery log keeps it.
    const logs = await db.select({ attempts: webhookDeliveries.attemptLog }).from(webhookDeliveries);
    const durations = logs
      .flatMap((log) => (log.attempts as DeliveryAttempt[]).map((attempt) => attempt.duration_ms))
      .sort((a, b) => a - b);
    return { delivered: received, seconds, durations, errors: count - received };
  } finally {
    receiver.close();
  }
}
