import { count, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import {
  MAX_BATCH_ROWS,
  type Batch,
  type BatchCreated,
  type BatchPreview,
  type BatchRowError,
  type Page,
} from "@taskmint/shared";
import { taskBatches, tasks } from "../../db/schema/index.ts";
import {
  buyerWithKey,
  marketplaceTestFile,
  multipart,
  registerUser,
  type BuyerWithKey,
  type RegisteredUser,
} from "../../test/harness.ts";
import { balanceOf, checkLedger, escrowOf } from "../ledger/service.ts";

// Issue 35 point 5 (decision 036): tasks posted together from a CSV, all rows or none.

const { ctx, call, days, coinsOf, submit } = marketplaceTestFile();

const HEADER =
  "task_title,task_detail,submission_info,payable_amount,required_workers,completion_date,category";
const line = (n: number, reward = 1, slots = 2) =>
  `Label photo ${n},"Label photo ${n}, with what it shows",The label,${reward},${slots},${days(7)},data_entry`;
const csvOf = (rows: string[], header = HEADER) => [header, ...rows].join("\n");

async function upload(
  buyer: BuyerWithKey,
  file: string | Buffer,
  options: { template?: string; dryRun?: boolean; idempotencyKey?: string } = {},
): Promise<LightMyRequestResponse> {
  const body = await multipart({
    ...(options.template === undefined ? {} : { template: options.template }),
    file: { bytes: Buffer.from(file), filename: "tasks.csv", type: "text/csv" },
  });
  return ctx.app.inject({
    method: "POST",
    url: `/api/buyer/batches${options.dryRun ? "?dry_run=true" : ""}`,
    payload: body.payload,
    headers: {
      ...body.headers,
      authorization: `Bearer ${buyer.key}`,
      ...(options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : {}),
    },
  });
}

const tasksOf = async (buyer: RegisteredUser) =>
  (await ctx.db.select({ n: count() }).from(tasks).where(eq(tasks.buyerId, buyer.user.id)))[0]?.n;

/** A 400 whose details name these (row, field) pairs exactly. */
function expectRowErrors(response: LightMyRequestResponse, expected: Partial<BatchRowError>[]) {
  expect(response.statusCode, response.body).toBe(400);
  const { error } = response.json<{ error: { code: string; details: { errors: BatchRowError[] } } }>();
  expect(error.code).toBe("VALIDATION");
  expect(error.details.errors.map(({ row, field }) => ({ row, field }))).toEqual(
    expected.map(({ row, field }) => ({ row, field })),
  );
}

describe("posting a batch", () => {
  it(`posts ${MAX_BATCH_ROWS.toLocaleString("en-US")} rows in one step, each task funded, the ledger balanced`, async () => {
    const buyer = await buyerWithKey(ctx, MAX_BATCH_ROWS * 2, "batch script");
    const before = await coinsOf(buyer);
    const rows = Array.from({ length: MAX_BATCH_ROWS }, (_, n) => line(n + 1));
    const response = await upload(buyer, csvOf(rows));
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<BatchCreated>();
    expect(created.tasks_created).toBe(MAX_BATCH_ROWS);
    expect(new Set(created.task_ids).size).toBe(MAX_BATCH_ROWS);
    expect(created.total_cost).toBe(MAX_BATCH_ROWS * 2);
    expect(await tasksOf(buyer)).toBe(MAX_BATCH_ROWS);
    expect(await coinsOf(buyer)).toBe(before - MAX_BATCH_ROWS * 2);
    expect(await balanceOf(ctx.db, escrowOf(created.task_ids[4_999] ?? ""))).toBe(2);
    expect((await checkLedger(ctx.db)).problems).toEqual([]);
    const [first] = await ctx.db
      .select()
      .from(tasks)
      .where(eq(tasks.id, created.task_ids[0] ?? ""));
    expect(first?.title).toBe("Label photo 1");
    expect(first?.detail).toBe("Label photo 1, with what it shows");
    expect(first?.imageUrl).toBe("/api/categories/data_entry/picture");
    expect(first?.batchId).toBe(created.batch_id);
  }, 120_000);

  it(`refuses ${(MAX_BATCH_ROWS + 1).toLocaleString("en-US")} rows with 400, posting nothing`, async () => {
    const buyer = await buyerWithKey(ctx, MAX_BATCH_ROWS * 2, "batch script");
    const rows = Array.from({ length: MAX_BATCH_ROWS + 1 }, (_, n) => line(n + 1));
    expectRowErrors(await upload(buyer, csvOf(rows)), [{ row: 0, field: "file" }]);
    expect(await tasksOf(buyer)).toBe(0);
  });

  it("posts nothing when one row is bad, naming its row and field", async () => {
    const buyer = await buyerWithKey(ctx, 100, "batch script");
    const before = await coinsOf(buyer);
    const bad = `Label,Details,The label,0,2,${days(7)},data_entry`;
    const late = `Label,Details,The label,1,2,${days(-1)},data_entry`;
    const response = await upload(buyer, csvOf([line(1), bad, line(3), late]));
    expectRowErrors(response, [
      { row: 2, field: "payable_amount" },
      { row: 4, field: "completion_date" },
    ]);
    expect(await tasksOf(buyer)).toBe(0);
    expect(await coinsOf(buyer)).toBe(before);
  });

  it("refuses a batch that costs more than the buyer's coins with 409, posting nothing", async () => {
    const buyer = await buyerWithKey(ctx, 1, "batch script");
    const coins = await coinsOf(buyer);
    const rows = Array.from({ length: coins }, (_, n) => line(n + 1, 1, 1));
    const exact = await upload(buyer, csvOf(rows), { dryRun: true });
    expect(exact.json<BatchPreview>().total_cost).toBe(coins);
    const response = await upload(buyer, csvOf([...rows, line(0, 1, 1)]));
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json<{ error: { code: string } }>().error.code).toBe("INSUFFICIENT_COINS");
    expect(await tasksOf(buyer)).toBe(0);
    expect(await coinsOf(buyer)).toBe(coins);
    // Exactly the wallet's coins is allowed.
    expect((await upload(buyer, csvOf(rows))).statusCode).toBe(201);
    expect(await coinsOf(buyer)).toBe(0);
    expect((await checkLedger(ctx.db)).problems).toEqual([]);
  });

  it("fills a template's ${column} placeholders from each row", async () => {
    const buyer = await buyerWithKey(ctx, 100, "batch script");
    const template = JSON.stringify({
      task_title: "Transcribe ${city} receipt",
      task_detail: "Open ${url} and type every line of the receipt from ${city}.",
      submission_info: "The text",
      payable_amount: 3,
      category: "transcription",
    });
    const file = csvOf(
      [`Paris,https://example.com/1.png,1,${days(3)}`, `Oslo,https://example.com/2.png,2,${days(3)}`],
      "city,url,required_workers,completion_date",
    );
    const response = await upload(buyer, file, { template });
    expect(response.statusCode, response.body).toBe(201);
    const { task_ids, total_cost } = response.json<BatchCreated>();
    expect(total_cost).toBe(3 * 1 + 3 * 2);
    const [oslo] = await ctx.db
      .select()
      .from(tasks)
      .where(eq(tasks.id, task_ids[1] ?? ""));
    expect(oslo?.title).toBe("Transcribe Oslo receipt");
    expect(oslo?.detail).toBe("Open https://example.com/2.png and type every line of the receipt from Oslo.");
    expect(oslo?.category).toBe("transcription");
    expect(oslo?.requiredWorkers).toBe(2);
    expectRowErrors(await upload(buyer, file, { template: JSON.stringify({ task_title: "${town}" }) }), [
      { row: 0, field: "template" },
    ]);
  });

  it("dry_run previews the rows, the errors and the cost and changes nothing", async () => {
    const buyer = await buyerWithKey(ctx, 100, "batch script");
    const before = await coinsOf(buyer);
    const response = await upload(buyer, csvOf([line(1, 2, 3), `,x,y,1,1,${days(7)},data_entry`]), {
      dryRun: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<BatchPreview>();
    expect(preview.rows).toBe(2);
    expect(preview.total_cost).toBe(6);
    expect(preview.errors).toEqual([{ row: 2, field: "task_title", message: expect.any(String) as string }]);
    expect(preview.preview.map((row) => row.row)).toEqual([1]);
    expect(await tasksOf(buyer)).toBe(0);
    expect(await coinsOf(buyer)).toBe(before);
    const [batches] = await ctx.db
      .select({ n: count() })
      .from(taskBatches)
      .where(eq(taskBatches.buyerId, buyer.user.id));
    expect(batches?.n).toBe(0);
  });

  it("refuses a file that is not a readable CSV with 400 JSON", async () => {
    const buyer = await buyerWithKey(ctx, 100, "batch script");
    const bad: [string, string | Buffer][] = [
      ["binary", Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0xfe])],
      ["NUL", `${HEADER}\n${line(1)}\u0000`],
      ["not UTF-8", Buffer.from([0x61, 0x2c, 0xc3, 0x28, 0x0a])],
      ["unbalanced quotes", `${HEADER}\n"Label,x,y,1,1,${days(7)},other`],
      ["huge field", `${HEADER}\n"${"x".repeat(70_000)}",x,y,1,1,${days(7)},other`],
      ["wrong header", `title,detail\nLabel,x`],
      ["ragged row", `${HEADER}\nLabel,x`],
      ["header only", HEADER],
      ["bad template", csvOf([line(1)])],
    ];
    for (const [name, file] of bad) {
      const response = await upload(buyer, file, name === "bad template" ? { template: "{not json" } : {});
      expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
      expect(response.json<{ error: { code: string } }>().error.code).toBe("VALIDATION");
    }
    expect(await tasksOf(buyer)).toBe(0);
  });

  it("20 parallel retries with one Idempotency-Key post one batch", async () => {
    const buyer = await buyerWithKey(ctx, 100, "batch script");
    const before = await coinsOf(buyer);
    const file = csvOf([line(1), line(2), line(3)]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => upload(buyer, file, { idempotencyKey: "batch-1" })),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    expect(new Set(answers.map((answer) => answer.json<BatchCreated>().batch_id)).size).toBe(1);
    expect(await tasksOf(buyer)).toBe(3);
    expect(await coinsOf(buyer)).toBe(before - 6);
  });
});

describe("a batch's list and results", () => {
  let buyer: BuyerWithKey;
  let batch: BatchCreated;
  beforeAll(async () => {
    buyer = await buyerWithKey(ctx, 100, "batch script");
    const response = await upload(buyer, csvOf([line(1), line(2)]));
    expect(response.statusCode, response.body).toBe(201);
    batch = response.json<BatchCreated>();
  });

  it("lists the buyer's batches, newest first", async () => {
    const response = await call("GET", "/api/buyer/batches", undefined, undefined, {
      authorization: `Bearer ${buyer.key}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<Page<Batch>>();
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      id: batch.batch_id,
      tasks_created: 2,
      total_cost: 4,
      file_name: "tasks.csv",
      via_api_key: true,
    });
  });

  it("downloads the results as CSV, one line per submission, spreadsheet formulas defused; another buyer gets 404", async () => {
    const worker = await registerUser(ctx.app, "worker");
    const submitted = await submit(worker, batch.task_ids[0] ?? "", '=HYPERLINK("http://evil")');
    expect(submitted.statusCode, submitted.body).toBe(201);
    const url = `/api/buyer/batches/${batch.batch_id}/results.csv`;
    const response = await call("GET", url, buyer.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    const lines = response.body.trim().split("\n");
    expect(lines[0]).toBe(
      "task_id,task_title,submission_id,worker_id,worker_name,status,submission_details,submitted_at",
    );
    expect(lines.length).toBe(3);
    const submittedLine = lines.find((text) => text.startsWith(`${batch.task_ids[0]},`));
    expect(submittedLine).toContain(worker.user.id);
    expect(submittedLine).toContain("'=HYPERLINK");
    expect(lines).toContain(`${batch.task_ids[1]},Label photo 2,,,,,,`);
    const other = await registerUser(ctx.app, "buyer");
    const refused = await call("GET", url, other.cookie);
    expect(refused.statusCode).toBe(404);
  });
});
