import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import {
  BATCH_PREVIEW_ROWS,
  BATCH_RESULT_COLUMNS,
  type Batch,
  type BatchCreated,
  type BatchPreview,
  type Page,
  type PageQuery,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { submissions, taskBatches, tasks, users } from "../../db/schema/index.ts";
import { AppError, insufficientCoins, notFound } from "../../lib/errors.ts";
import { newestFirstPage } from "../../lib/paging.ts";
import { balanceOf, walletOf } from "../ledger/service.ts";
import { completionDateProblem, postFundedTasks } from "../tasks/service.ts";
import { readBatch, type ReadRow } from "./csv.ts";

// Issue 35 point 5 (decision 036): a buyer's tasks posted together from one CSV, all or none.

export interface BatchUpload {
  buyerId: string;
  apiKeyId: string | null;
  file: Buffer;
  fileName: string | null;
  template: string | undefined;
  now: Date;
}

const costOf = ({ fields }: ReadRow) => fields.required_workers * fields.payable_amount;

function read(upload: BatchUpload) {
  return readBatch(upload.file, upload.template, (fields) => {
    const message = completionDateProblem(fields, upload.now);
    return message ? { field: "completion_date", message } : null;
  });
}

/** `?dry_run=true`: the batch checked and priced, nothing stored. */
export function previewBatch(upload: BatchUpload): BatchPreview {
  const { rows, errors, count } = read(upload);
  return {
    rows: count,
    errors,
    total_cost: rows.reduce((sum, row) => sum + costOf(row), 0),
    preview: rows.slice(0, BATCH_PREVIEW_ROWS).map((row) => ({
      row: row.row,
      task_title: row.fields.task_title,
      payable_amount: row.fields.payable_amount,
      required_workers: row.fields.required_workers,
      completion_date: row.fields.completion_date,
      category: row.fields.category,
      cost: costOf(row),
    })),
  };
}

/**
 * Posts every row of the batch in one transaction, each task's escrow funded from the buyer's
 * wallet through the ledger; any bad row is a 400 naming each bad row and field, and more than
 * the wallet holds is 409 INSUFFICIENT_COINS: either way nothing is posted.
 */
export async function postBatch(db: Database, upload: BatchUpload): Promise<BatchCreated> {
  const { rows, errors } = read(upload);
  if (errors.length > 0)
    throw new AppError(
      "VALIDATION",
      `${errors.length === 1 ? "One row is" : `${errors.length.toLocaleString("en-US")} problems are`} in the batch: nothing was posted (row ${errors[0]?.row}, ${errors[0]?.field}: ${errors[0]?.message})`,
      { errors },
    );
  const totalCost = rows.reduce((sum, row) => sum + costOf(row), 0);
  // Fails a batch the wallet cannot pay before writing 5,000 rows; the ledger checks again.
  if ((await balanceOf(db, walletOf(upload.buyerId))) < totalCost) throw insufficientCoins();
  const batchId = randomUUID();
  const taskIds = await db.transaction(async (tx) => {
    await tx.insert(taskBatches).values({
      id: batchId,
      buyerId: upload.buyerId,
      tasksCreated: rows.length,
      totalCost,
      fileName: upload.fileName,
      apiKeyId: upload.apiKeyId,
      createdAt: upload.now,
    });
    return postFundedTasks(tx, {
      buyerId: upload.buyerId,
      batchId,
      rows: rows.map((row) => row.fields),
      now: upload.now,
    });
  });
  return { batch_id: batchId, tasks_created: taskIds.length, task_ids: taskIds, total_cost: totalCost };
}

const toBatch = (row: typeof taskBatches.$inferSelect): Batch => ({
  id: row.id,
  created_at: row.createdAt.toISOString(),
  tasks_created: row.tasksCreated,
  total_cost: row.totalCost,
  file_name: row.fileName,
  via_api_key: row.apiKeyId !== null,
});

/** The buyer's batches, newest first. */
export function listBatches(db: Database, buyerId: string, page: PageQuery): Promise<Page<Batch>> {
  return newestFirstPage(
    db,
    { table: taskBatches, select: (d) => d.select().from(taskBatches), toItem: toBatch },
    eq(taskBatches.buyerId, buyerId),
    page,
  );
}

/** A spreadsheet runs a cell that starts with these: such text is sent with a leading quote. */
const FORMULA_START = /^[=+\-@\t\r]/;
const cell = (value: string | null) => (value && FORMULA_START.test(value) ? `'${value}` : (value ?? ""));

/** A batch's results as CSV (its buyer's only: another's is 404), one line per submission. */
export async function batchResultsCsv(db: Database, request: { buyerId: string; batchId: string }) {
  const [batch] = await db
    .select({ id: taskBatches.id })
    .from(taskBatches)
    .where(and(eq(taskBatches.id, request.batchId), eq(taskBatches.buyerId, request.buyerId)));
  if (!batch) throw notFound("Batch");
  const lines = await db
    .select({
      taskId: tasks.id,
      title: tasks.title,
      submissionId: submissions.id,
      workerId: submissions.workerId,
      workerName: users.name,
      status: submissions.status,
      details: submissions.details,
      submittedAt: submissions.createdAt,
    })
    .from(tasks)
    .leftJoin(submissions, eq(submissions.taskId, tasks.id))
    .leftJoin(users, eq(users.id, submissions.workerId))
    .where(eq(tasks.batchId, batch.id))
    .orderBy(asc(tasks.createdAt), asc(tasks.id), asc(submissions.createdAt));
  return stringify(
    lines.map((line) => [
      line.taskId,
      cell(line.title),
      line.submissionId ?? "",
      line.workerId ?? "",
      cell(line.workerName),
      line.status ?? "",
      cell(line.details),
      line.submittedAt?.toISOString() ?? "",
    ]),
    { header: true, columns: [...BATCH_RESULT_COLUMNS] },
  );
}
