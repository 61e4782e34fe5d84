import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { coinCount, paths, type Bonus, type BonusRequest } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { bonuses, users } from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";
import { transfer, walletOf } from "../ledger/service.ts";
import { notify } from "../notifications/service.ts";
import { submissionFacts } from "../submissions/service.ts";

// Rule R23: a buyer sends a worker who submitted to one of their tasks a bonus from their
// wallet, once per Idempotency-Key: a retried request answers the first bonus again.

type BonusRow = typeof bonuses.$inferSelect;

const toBonus = (row: BonusRow, workerName: string): Bonus => ({
  id: row.id,
  coins: row.coins,
  worker_name: workerName,
  message: row.message,
  created_at: row.createdAt.toISOString(),
});

const sameRequest = (row: BonusRow, request: BonusRequest) =>
  row.submissionId === request.submission_id &&
  row.coins === request.coins &&
  row.message === request.message;

/**
 * Pays the bonus in one transaction: the bonus row (unique per buyer and key, so of two racing
 * requests with one key the second waits for the first and then finds its row), the transfer
 * from the buyer's wallet (409 INSUFFICIENT_COINS, nothing stored) and the worker's notification.
 */
export async function sendBonus(
  db: Database,
  send: { buyerId: string; idempotencyKey: string; request: BonusRequest; now: Date },
): Promise<Bonus> {
  const { buyerId, idempotencyKey, request, now } = send;
  return db.transaction(async (tx) => {
    const submission = await submissionFacts(tx, request.submission_id);
    if (submission.buyerId !== buyerId)
      throw new AppError("FORBIDDEN", "You can send a bonus only for work on your own tasks");
    const id = randomUUID();
    const [created] = await tx
      .insert(bonuses)
      .values({
        id,
        buyerId,
        workerId: submission.workerId,
        submissionId: request.submission_id,
        coins: request.coins,
        message: request.message,
        idempotencyKey,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [bonuses.buyerId, bonuses.idempotencyKey] })
      .returning();
    if (!created) {
      const [first] = await tx
        .select()
        .from(bonuses)
        .where(and(eq(bonuses.buyerId, buyerId), eq(bonuses.idempotencyKey, idempotencyKey)));
      if (!first) throw new Error(`bonus with key ${idempotencyKey} conflicted but was not found`);
      if (!sameRequest(first, request))
        throw new AppError(
          "IDEMPOTENCY_MISMATCH",
          "This Idempotency-Key was already used for a different bonus: use a new key for a new bonus",
        );
      return toBonus(first, submission.workerName);
    }
    if (submission.workerDeletedAt) throw new AppError("CONFLICT", "This worker's account was deleted");
    await transfer(tx, {
      from: walletOf(buyerId),
      to: walletOf(submission.workerId),
      amount: request.coins,
      idempotencyKey: `bonus:${id}`,
    });
    const [buyer] = await tx.select({ name: users.name }).from(users).where(eq(users.id, buyerId));
    const coins = coinCount(request.coins);
    await notify(tx, {
      userId: submission.workerId,
      message: `You received a bonus of ${coins} from ${buyer?.name ?? "a buyer"} for "${submission.taskTitle}"${request.message ? `: ${request.message}` : ""}`,
      actionRoute: paths.dashboard.mySubmissions,
      kind: "bonus_received",
    });
    return toBonus(created, submission.workerName);
  });
}
