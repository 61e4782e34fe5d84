import { sql } from "drizzle-orm";
import {
  check,
  customType,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { TASK_CATEGORIES, workerLevels, type TaskCategory } from "@taskmint/shared";
import { userReference } from "./auth.ts";
import { taskBatches } from "./batches.ts";

/** PostgreSQL's full-text document type; the app only searches it, never reads it. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const categoryIds = TASK_CATEGORIES.map((category) => category.id) as [TaskCategory, ...TaskCategory[]];

export const tasks = pgTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    buyerId: userReference("buyer_id"),
    title: text("task_title").notNull(),
    detail: text("task_detail").notNull(),
    submissionInfo: text("submission_info").notNull(),
    /** Open slots: taken by a submission, given back by a rejection, 0 once the task is closed. */
    requiredWorkers: integer("required_workers").notNull(),
    payableAmount: integer("payable_amount").notNull(),
    completionDate: date("completion_date", { mode: "string" }).notNull(),
    imageUrl: text("task_image_url").notNull(),
    category: text("category", { enum: categoryIds }).notNull().default("other"),
    /** The buyer's estimate of the work, in minutes: the pay per hour workers compare. */
    estimatedMinutes: integer("estimated_minutes").notNull().default(5),
    /** How long a reserved slot is held for its worker. */
    timeLimitMinutes: integer("time_limit_minutes").notNull().default(60),
    /** Screenshots each submission must carry. */
    proofImages: integer("proof_images").notNull().default(0),
    /** Rule R21: the least approval rate (%) and level a worker needs to see and take it. */
    minApprovalRate: integer("min_approval_rate").notNull().default(0),
    minLevel: text("min_level", { enum: workerLevels }).notNull().default("new"),
    /** The batch (decision 036) that posted it, null for a task posted on its own. */
    batchId: text("batch_id").references(() => taskBatches.id),
    /** Hundredths of a coin per hour of the estimated time: the "best pay per hour" order's key. */
    payRate: integer("pay_rate")
      .notNull()
      .generatedAlwaysAs(sql`(payable_amount * 6000) / estimated_minutes`),
    /** The title and details as searchable words (English stemming), kept by the database. */
    searchDocument: tsvector("search_document")
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english'::regconfig, task_title || ' ' || task_detail)`),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    /** Set when the owner or an admin deleted it: hidden from every list, kept for history. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    // Millisecond precision, so a JavaScript Date carries it exactly in a page cursor.
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => {
    // Open tasks with a free slot: what the browsers list, and all their indexes hold.
    const openWithSlots = sql`${table.status} = 'open' and ${table.requiredWorkers} > 0`;
    return [
      check("tasks_required_workers_check", sql`${table.requiredWorkers} >= 0`),
      check("tasks_payable_amount_check", sql`${table.payableAmount} >= 1`),
      check("tasks_status_check", sql`${table.status} in ('open', 'closed')`),
      check(
        "tasks_category_check",
        sql.raw(`category in (${categoryIds.map((id) => `'${id}'`).join(", ")})`),
      ),
      check("tasks_estimated_minutes_check", sql`${table.estimatedMinutes} between 1 and 600`),
      check("tasks_time_limit_minutes_check", sql`${table.timeLimitMinutes} between 5 and 1440`),
      check("tasks_proof_images_check", sql`${table.proofImages} between 0 and 3`),
      check("tasks_min_approval_rate_check", sql`${table.minApprovalRate} between 0 and 100`),
      check(
        "tasks_min_level_check",
        sql.raw(`min_level in (${workerLevels.map((level) => `'${level}'`).join(", ")})`),
      ),
      // The browsers' orders (the price index serves both directions), each over open tasks
      // with a free slot, and again within one category, so a category filter (with or
      // without words) walks only its own tasks instead of testing every open task.
      ...(
        [
          ["price", table.payableAmount],
          ["newest", table.createdAt],
          ["pay_rate", table.payRate],
          ["ending", table.completionDate],
        ] as const
      ).flatMap(([order, key]) => [
        index(`tasks_open_${order}_idx`).on(key, table.id).where(openWithSlots),
        index(`tasks_open_category_${order}_idx`).on(table.category, key, table.id).where(openWithSlots),
      ]),
      index("tasks_open_search_idx").using("gin", table.searchDocument).where(openWithSlots),
      index("tasks_buyer_idx").on(table.buyerId, table.completionDate),
      index("tasks_batch_idx")
        .on(table.batchId)
        .where(sql`${table.batchId} is not null`),
      // The admins' task list, newest first, over every task.
      index("tasks_created_idx").on(table.createdAt, table.id),
      index("tasks_open_expiry_idx")
        .on(table.completionDate)
        .where(sql`${table.status} = 'open'`),
    ];
  },
);

/** A required column naming the task a row belongs to. */
const taskReference = () =>
  text("task_id")
    .notNull()
    .references(() => tasks.id);

export const submissions = pgTable(
  "submissions",
  {
    id: text("id").primaryKey(),
    taskId: taskReference(),
    workerId: userReference("worker_id"),
    /** The task's buyer, copied so the review queue needs no join to filter. */
    buyerId: userReference("buyer_id"),
    details: text("submission_details").notNull(),
    /** The screenshots sent as proof (rule R18's pipeline), as /uploads/ addresses. */
    attachments: text("attachments")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    autoApproveAt: timestamp("auto_approve_at", { withTimezone: true }).notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    check("submissions_status_check", sql`${table.status} in ('pending', 'approved', 'rejected')`),
    check("submissions_attachments_check", sql`cardinality(${table.attachments}) <= 3`),
    // Rule R3: one submission per worker per task, enforced by the database.
    uniqueIndex("submissions_task_worker_idx").on(table.taskId, table.workerId),
    // With the id last, both histories read a page straight off the index, newest first.
    index("submissions_worker_idx").on(table.workerId, table.createdAt, table.id),
    index("submissions_buyer_idx").on(table.buyerId, table.status, table.createdAt, table.id),
    index("submissions_task_status_idx").on(table.taskId, table.status),
    // Which submission a screenshot belongs to, so /uploads/:key serves it to its viewers only.
    index("submissions_attachments_idx").using("gin", table.attachments),
    index("submissions_due_idx")
      .on(table.autoApproveAt)
      .where(sql`${table.status} = 'pending'`),
    // Buyer reputation (rule R21): who decided since the last refresh, and each buyer's window.
    index("submissions_decided_idx")
      .on(table.decidedAt)
      .where(sql`${table.decidedAt} is not null`),
    index("submissions_buyer_decided_idx")
      .on(table.buyerId, table.decidedAt)
      .where(sql`${table.decidedAt} is not null`),
  ],
);

export const reservationStatuses = ["active", "submitted", "cancelled", "expired", "ended"] as const;

/**
 * Rule R20: a slot a worker holds while doing the task. Taking one takes the task's open slot;
 * it ends once: by the worker's submission (the slot becomes the submission's), cancellation or
 * running out (the slot goes back to the task), or the task closing (the slot is refunded).
 */
export const reservations = pgTable(
  "reservations",
  {
    id: text("id").primaryKey(),
    taskId: taskReference(),
    workerId: userReference("worker_id"),
    status: text("status", { enum: reservationStatuses }).notNull().default("active"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true, precision: 3 }),
  },
  (table) => {
    const active = sql`${table.status} = 'active'`;
    return [
      check(
        "reservations_status_check",
        sql`${table.status} in ('active', 'submitted', 'cancelled', 'expired', 'ended')`,
      ),
      // One live reservation per worker and task, decided by the database when two requests race.
      uniqueIndex("reservations_active_task_worker_idx").on(table.taskId, table.workerId).where(active),
      index("reservations_active_worker_idx").on(table.workerId, table.expiresAt).where(active),
      index("reservations_active_expiry_idx").on(table.expiresAt).where(active),
    ];
  },
);
