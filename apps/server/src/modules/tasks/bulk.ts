import { randomUUID } from "node:crypto";
import type { CreateTaskFields } from "@taskmint/shared";
import { queueTasksPosted } from "../../core/tasks-posted.ts";
import type { Database } from "../../db/client.ts";
import { tasks } from "../../db/schema/index.ts";
import { fundEscrows, openEscrows } from "../ledger/service.ts";
import { categoryPictureUrl } from "./category-picture.ts";
import { taskColumnsOf } from "./columns.ts";

/** Rows per INSERT: 17 values a row stays far below PostgreSQL's 65,535 parameters. */
const CHUNK = 500;

/**
 * Rule R2 for many tasks at once (a batch, decision 036), in the caller's transaction: the
 * tasks, each with its category's picture, their escrows, and each escrow funded from the
 * buyer's wallet through the ledger (409 INSUFFICIENT_COINS, and the caller rolls back).
 * Two statements per 500 tasks and one for all the transfers, so 5,000 tasks take seconds; one
 * job announces them all (saved-search alerts). Answers the ids in the rows' order.
 */
export async function postFundedTasks(
  tx: Database,
  batch: { buyerId: string; batchId: string; rows: CreateTaskFields[]; now: Date },
): Promise<string[]> {
  const { buyerId, batchId, now } = batch;
  const rows = batch.rows.map((fields) => ({ id: randomUUID(), fields }));
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    await tx.insert(tasks).values(
      chunk.map(({ id, fields }) => ({
        id,
        buyerId,
        batchId,
        ...taskColumnsOf(fields),
        imageUrl: categoryPictureUrl(fields.category),
        createdAt: now,
      })),
    );
    await openEscrows(
      tx,
      chunk.map(({ id }) => id),
    );
  }
  await fundEscrows(tx, {
    buyerId,
    tasks: rows.map(({ id, fields }) => ({ id, amount: fields.required_workers * fields.payable_amount })),
  });
  const taskIds = rows.map(({ id }) => id);
  await queueTasksPosted(tx, { taskIds, now });
  return taskIds;
}
