/**
 * Posts a CSV file of tasks as one batch with an API key: a dry run first (how many rows, each
 * bad row's problem, the cost), then the real post with an Idempotency-Key, retried on a network
 * error with the same key, so the tasks are posted once however often it is retried.
 *
 *   TASKMINT_URL=https://taskmint.example TASKMINT_KEY=tm_... npx tsx examples/post-batch.ts tasks.csv
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createBuyerClient, formData } from "../src/index.ts";

/** Checks then posts `csv`; answers the batch posted, or the problems that kept it from posting. */
export async function postBatch(options: {
  baseUrl: string;
  apiKey: string;
  csv: Blob;
  fileName: string;
  /** Tries of the real post on a network error (the key makes a repeat harmless). */
  tries?: number;
}) {
  const taskmint = createBuyerClient(options);
  const body = { file: options.csv };
  const bodySerializer = () => formData(body, { file: options.fileName });

  const check = await taskmint.POST("/api/buyer/batches", {
    params: { query: { dry_run: "true" } },
    body,
    bodySerializer,
  });
  if (check.error) throw new Error(`check failed: ${check.error.error.message}`);
  if (!("rows" in check.data)) throw new Error("a dry run answers a preview");
  if (check.data.errors.length > 0) return { posted: false, problems: check.data.errors } as const;

  // One key for this batch: a retry after a lost answer gets the first answer back.
  const idempotencyKey = randomUUID();
  for (let attempt = 1; ; attempt++) {
    try {
      const post = await taskmint.POST("/api/buyer/batches", {
        params: { query: { dry_run: "false" }, header: { "idempotency-key": idempotencyKey } },
        body,
        bodySerializer,
      });
      if (post.error) throw new Error(`post failed: ${post.error.error.message}`);
      if ("rows" in post.data) throw new Error("a post answers the batch");
      return { posted: true, batch: post.data } as const;
    } catch (error) {
      // Only a request that never got an answer is retried; an error answer is final.
      if (!(error instanceof TypeError) || attempt >= (options.tries ?? 3)) throw error;
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [file] = process.argv.slice(2);
  const { TASKMINT_URL: baseUrl, TASKMINT_KEY: apiKey } = process.env;
  if (!file || !baseUrl || !apiKey) {
    console.error("Usage: TASKMINT_URL=... TASKMINT_KEY=tm_... npx tsx examples/post-batch.ts tasks.csv");
    process.exit(2);
  }
  const csv = new Blob([await readFile(file)], { type: "text/csv" });
  const result = await postBatch({ baseUrl, apiKey, csv, fileName: path.basename(file) });
  if (!result.posted) {
    for (const { row, field, message } of result.problems) console.error(`row ${row}, ${field}: ${message}`);
    process.exit(1);
  }
  const { tasks_created, total_cost, batch_id } = result.batch;
  console.log(`Posted ${tasks_created} tasks for ${total_cost} coins (batch ${batch_id})`);
}
