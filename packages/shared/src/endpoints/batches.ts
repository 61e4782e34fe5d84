import {
  BATCH_COLUMNS,
  BATCH_RESULT_COLUMNS,
  batchCreatedSchema,
  batchFormFieldsSchema,
  batchListQuerySchema,
  batchPreviewSchema,
  batchQuerySchema,
  batchSchema,
  MAX_BATCH_CSV_BYTES,
  MAX_BATCH_ROWS,
} from "../batches.ts";
import { idParamsSchema } from "../common.ts";
import { optionalIdempotencyHeadersSchema } from "../idempotency.ts";
import { defineEndpoint } from "../endpoint.ts";
import { pageOf } from "../paging.ts";

/** A buyer's batches of tasks posted from a CSV file (issue 35 point 5, decision 036). */
export const batchesEndpoints = {
  createBatch: defineEndpoint({
    method: "POST",
    path: "/api/buyer/batches",
    operationId: "createBatch",
    access: "buyer",
    keys: true,
    tags: ["buyer"],
    summary: "Post many tasks at once from a CSV file: all rows or none, each funded from your coins",
    description: `multipart/form-data: the file \`file\` (CSV, UTF-8, a header row, at most ${MAX_BATCH_ROWS.toLocaleString("en-US")} rows) whose columns are the fields of POST /api/tasks (${BATCH_COLUMNS.join(", ")}), and optionally \`template\`: a JSON object of the same fields whose text may hold \`\${column}\` placeholders, filled from each row (then the CSV holds only the template's columns and any field the template leaves out). No image: each task shows its category's picture. With \`?dry_run=true\` nothing is posted and the answer (200) is {rows, errors, total_cost, preview}. Otherwise 201 {batch_id, tasks_created, task_ids}; any bad row is 400 VALIDATION with details.errors = [{row, field, message}] and nothing is posted; 409 INSUFFICIENT_COINS when the total is more than your coins. Takes an Idempotency-Key.`,
    query: batchQuerySchema,
    form: {
      fields: batchFormFieldsSchema,
      files: { file: { required: true } },
      maxFileBytes: MAX_BATCH_CSV_BYTES,
    },
    headers: optionalIdempotencyHeadersSchema,
    response: { 200: batchPreviewSchema, 201: batchCreatedSchema },
    errors: [409, 413, 415],
  }),
  listBatches: defineEndpoint({
    method: "GET",
    path: "/api/buyer/batches",
    operationId: "listBatches",
    access: "buyer",
    keys: true,
    tags: ["buyer"],
    summary: "Your batches, newest first",
    query: batchListQuerySchema,
    response: { 200: pageOf(batchSchema) },
  }),
  getBatchResults: defineEndpoint({
    method: "GET",
    path: "/api/buyer/batches/:id/results.csv",
    operationId: "getBatchResults",
    access: "buyer",
    keys: true,
    tags: ["buyer"],
    summary: "A batch's results as CSV: one line per submission to its tasks",
    description: `text/csv with the columns ${BATCH_RESULT_COLUMNS.join(", ")}; a task without submissions has one line with the submission columns empty.`,
    params: idParamsSchema("Unknown batch"),
  }),
};
