import { z } from "zod";
import { pageQuerySchema } from "./paging.ts";
import { taskCategorySchema } from "./tasks.ts";

// Issue 35 point 5 (decision 036): a buyer posts many tasks at once from a CSV file.

/** The most rows one batch may hold. */
export const MAX_BATCH_ROWS = 5_000;
/** The largest CSV file a batch takes (5,000 rows of about 1 KB each, and room to spare). */
export const MAX_BATCH_CSV_BYTES = 8 * 1024 * 1024;
/** The longest template (its JSON text). */
export const MAX_BATCH_TEMPLATE_CHARS = 16_000;

/**
 * The columns a batch's CSV may have: the fields of POST /api/tasks (the same names, rules and
 * defaults). Without a template the first five are required; with one, any field the template
 * sets comes from it, its `${column}` placeholders filled from the row.
 */
export const BATCH_COLUMNS = [
  "task_title",
  "task_detail",
  "submission_info",
  "payable_amount",
  "required_workers",
  "completion_date",
  "category",
  "estimated_minutes",
  "time_limit_minutes",
  "proof_images",
  "min_approval_rate",
  "min_level",
] as const;

export const batchFormFieldsSchema = z.object({
  /**
   * A JSON object of task fields (as POST /api/tasks names them) whose text may hold
   * `${column}` placeholders, filled from each row of the CSV.
   */
  template: z
    .string()
    .max(MAX_BATCH_TEMPLATE_CHARS, `The template must be at most ${MAX_BATCH_TEMPLATE_CHARS} characters`)
    .optional(),
});

export const batchQuerySchema = z.object({
  /** Check and price the batch without posting anything. */
  dry_run: z.enum(["true", "false"], { error: "dry_run must be true or false" }).default("false"),
});

/** One problem of one row: rows are numbered from 1 (the first row after the header); row 0 is the file or the template. */
export const batchRowErrorSchema = z.object({
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export type BatchRowError = z.infer<typeof batchRowErrorSchema>;

/** One row as it would be posted, for the preview. */
export const batchPreviewRowSchema = z.object({
  row: z.number().int(),
  task_title: z.string(),
  payable_amount: z.number().int(),
  required_workers: z.number().int(),
  completion_date: z.string(),
  category: taskCategorySchema,
  cost: z.number().int(),
});

/** The answer of `?dry_run=true`: the row count, every row's problems, the cost of the valid rows. */
export const batchPreviewSchema = z.object({
  rows: z.number().int(),
  errors: z.array(batchRowErrorSchema),
  total_cost: z.number().int(),
  /** The first rows as they would be posted (at most BATCH_PREVIEW_ROWS). */
  preview: z.array(batchPreviewRowSchema),
});
export type BatchPreview = z.infer<typeof batchPreviewSchema>;
export const BATCH_PREVIEW_ROWS = 50;

export const batchCreatedSchema = z.object({
  batch_id: z.string(),
  tasks_created: z.number().int(),
  task_ids: z.array(z.string()),
  total_cost: z.number().int(),
});
export type BatchCreated = z.infer<typeof batchCreatedSchema>;

export const batchSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  tasks_created: z.number().int(),
  total_cost: z.number().int(),
  /** The CSV file's name as uploaded, or null. */
  file_name: z.string().nullable(),
  /** Whether it was posted with an API key (else from a signed-in session). */
  via_api_key: z.boolean(),
});
export type Batch = z.infer<typeof batchSchema>;

export const batchListQuerySchema = pageQuerySchema;

/** The columns of a batch's results CSV, one line per submission (a task without any has one line). */
export const BATCH_RESULT_COLUMNS = [
  "task_id",
  "task_title",
  "submission_id",
  "worker_id",
  "worker_name",
  "status",
  "submission_details",
  "submitted_at",
] as const;
