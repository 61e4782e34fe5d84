import { z } from "zod";
import {
  cursorPageOf,
  cursorSchema,
  largePageQuerySchema,
  MAX_PAGE_LIMIT,
  pageQuerySchema,
} from "./paging.ts";
import { isCalendarDate, queryTextSchema, textSchema } from "./text.ts";
import {
  appealSchema,
  appealStatuses,
  buyerReputationSchema,
  qualificationFieldsSchema,
  workerLevelSchema,
  workerReputationSchema,
} from "./trust.ts";

export const MAX_REQUIRED_WORKERS = 10_000;
export const MAX_PAYABLE_AMOUNT = 100_000;
export const SUBMISSION_DETAILS_MAX = 5_000;

const requiredText = (label: string, max: number) => textSchema(label, { max });

/** A whole count from 1 to `max`, of `unit`s when it has one ("at least 1 coin"). */
const wholeNumber = (label: string, max: number, unit?: { one: string; many: string }) =>
  z.coerce
    .number({ error: `${label} is required` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1${unit ? ` ${unit.one}` : ""}`)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")}${unit ? ` ${unit.many}` : ""}`);

/** What a task is about, for the browsers' filters; ids are stored, names shown. */
export const TASK_CATEGORIES = [
  { id: "data_entry", name: "Data entry" },
  { id: "surveys", name: "Surveys" },
  { id: "social_media", name: "Social media" },
  { id: "app_testing", name: "App and web testing" },
  { id: "writing_reviews", name: "Writing and reviews" },
  { id: "research", name: "Research" },
  { id: "transcription", name: "Transcription" },
  { id: "other", name: "Other" },
] as const;
export type TaskCategory = (typeof TASK_CATEGORIES)[number]["id"];
const categoryIds = TASK_CATEGORIES.map((category) => category.id) as [TaskCategory, ...TaskCategory[]];
export const taskCategorySchema = z.enum(categoryIds, { error: "Choose a category" });
export const categoryName = (id: TaskCategory) =>
  TASK_CATEGORIES.find((category) => category.id === id)?.name ?? "Other";

/** The worker's time a task takes, as the buyer estimates it, and the time a reserved slot is held. */
export const ESTIMATED_MINUTES = { min: 1, max: 600, default: 5 } as const;
export const TIME_LIMIT_MINUTES = { min: 5, max: 1_440, default: 60 } as const;
export const MAX_PROOF_IMAGES = 3;

const minutes = (count: number) => `${count.toLocaleString("en-US")} minute${count === 1 ? "" : "s"}`;
const boundedMinutes = (label: string, bounds: { min: number; max: number }) =>
  z.coerce
    .number({ error: `${label} is required` })
    .int(`${label} must be a whole number of minutes`)
    .min(bounds.min, `${label} must be at least ${minutes(bounds.min)}`)
    .max(bounds.max, `${label} must be at most ${minutes(bounds.max)}`);

/** Today's date in UTC as YYYY-MM-DD, the calendar the server's rules use. */
export const isoDate = (when: Date) => when.toISOString().slice(0, 10);

// Each message names the field by the label the forms show it under (Add task, Edit task).
export const editableTaskFieldsSchema = z.object({
  task_title: requiredText("Task title", 200),
  task_detail: textSchema("Task details", { max: 5_000, plural: true }),
  submission_info: requiredText("What to submit", 2_000),
});
export type EditableTaskFields = z.infer<typeof editableTaskFieldsSchema>;

/** The text fields of POST /api/tasks (the image is a file, checked separately). */
export const createTaskFieldsSchema = editableTaskFieldsSchema.extend({
  required_workers: wholeNumber("Number of workers", MAX_REQUIRED_WORKERS),
  payable_amount: wholeNumber("Pay per worker", MAX_PAYABLE_AMOUNT, { one: "coin", many: "coins" }),
  completion_date: z
    .string({ error: "Completion date is required" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Completion date is required")
    .refine(isCalendarDate, "Completion date is not a real date"),
  // Optional in the API, so clients written before these fields keep working (the form asks for them).
  category: taskCategorySchema.default("other"),
  estimated_minutes: boundedMinutes("Estimated time", ESTIMATED_MINUTES).default(ESTIMATED_MINUTES.default),
  time_limit_minutes: boundedMinutes("Time limit", TIME_LIMIT_MINUTES).default(TIME_LIMIT_MINUTES.default),
  proof_images: z.coerce
    .number({ error: "Screenshots required must be a number" })
    .int("Screenshots required must be a whole number")
    .min(0, "Screenshots required cannot be negative")
    .max(MAX_PROOF_IMAGES, `Ask for at most ${MAX_PROOF_IMAGES} screenshots`)
    .default(0),
  ...qualificationFieldsSchema.shape,
});
export type CreateTaskFields = z.infer<typeof createTaskFieldsSchema>;

export const submitWorkSchema = z.object({
  submission_details: requiredText("Submission details", SUBMISSION_DETAILS_MAX),
});
export type SubmitWork = z.infer<typeof submitWorkSchema>;

export const taskSchema = z.object({
  id: z.string(),
  task_title: z.string(),
  task_detail: z.string(),
  /** The open slots (required_workers counts down as slots are taken; slots_left says the same). */
  required_workers: z.number().int(),
  slots_left: z.number().int(),
  payable_amount: z.number().int(),
  completion_date: z.string(),
  task_image_url: z.string(),
  submission_info: z.string(),
  user_name: z.string(),
  /** The buyer's user id (to hide their tasks, rule R23). */
  buyer_id: z.string(),
  /** The buyer's email: signed-in users only, absent for visitors. */
  user_email: z.string().optional(),
  status: z.enum(["open", "closed"]),
  created_at: z.string(),
  category: taskCategorySchema,
  estimated_minutes: z.number().int(),
  time_limit_minutes: z.number().int(),
  proof_images: z.number().int(),
  /** Rule R21: who may see, reserve and submit (0 and "new" require nothing). */
  min_approval_rate: z.number().int(),
  min_level: workerLevelSchema,
  buyer_reputation: buyerReputationSchema,
});
export type Task = z.infer<typeof taskSchema>;

export const submissionStatuses = ["pending", "approved", "rejected"] as const;
export type SubmissionStatus = (typeof submissionStatuses)[number];
export const submissionListQuerySchema = pageQuerySchema.extend({
  status: z.enum(submissionStatuses).optional(),
  /** Only submissions whose appeal is in this state (the buyer's "appeals to answer"). */
  appeal: z.enum(appealStatuses).optional(),
});

export const submissionSchema = z.object({
  id: z.string(),
  task_id: z.string(),
  task_title: z.string(),
  payable_amount: z.number().int(),
  worker_email: z.string(),
  worker_name: z.string(),
  /** The worker's user id (to block them or read their reputation, rules R21 and R23). */
  worker_id: z.string(),
  submission_details: z.string(),
  /** Screenshots sent as proof: /uploads/ addresses, at most MAX_PROOF_IMAGES. */
  attachments: z.array(z.string()),
  buyer_name: z.string(),
  buyer_email: z.string(),
  current_date: z.string(),
  status: z.enum(submissionStatuses),
  reason: z.string().optional(),
  auto_approve_at: z.string().optional(),
  /** When it was approved or rejected; null while pending. */
  decided_at: z.string().nullable(),
  /** Rule R22: until when the worker may appeal this rejection; null unless rejected and not yet appealed. */
  appeal_until: z.string().nullable(),
  /** Rule R22: the worker's appeal of a rejection, null when there is none. */
  appeal: appealSchema.nullable(),
  worker_reputation: workerReputationSchema,
});
export type Submission = z.infer<typeof submissionSchema>;

/**
 * An escalated appeal as the admins decide it (rule R22): the submission with the task's
 * instructions (what it asked for and what to submit) and the buyer's record beside the worker's.
 */
export const appealCaseSchema = submissionSchema.extend({
  task_detail: z.string(),
  submission_info: z.string(),
  /** How many screenshots the task asked for. */
  proof_images: z.number().int(),
  buyer_reputation: buyerReputationSchema,
});
export type AppealCase = z.infer<typeof appealCaseSchema>;

/** The signed-in reader's own submission to a task, as the task's details show it. */
export const ownSubmissionSchema = submissionSchema.pick({
  id: true,
  status: true,
  current_date: true,
  reason: true,
  auto_approve_at: true,
});
export type OwnSubmission = z.infer<typeof ownSubmissionSchema>;

/** Rule R20: at most this many active reservations per worker. */
export const MAX_ACTIVE_RESERVATIONS = 3;
export const reservationStatuses = ["active", "submitted", "cancelled", "expired", "ended"] as const;

export const reservationSchema = z.object({
  id: z.string(),
  task_id: z.string(),
  task_title: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  status: z.enum(reservationStatuses),
});
export type Reservation = z.infer<typeof reservationSchema>;

/**
 * Answer of GET /api/tasks/:id: the task and, for a signed-in reader, their own submission
 * to it and their active reservation of it (null when they have none). Absent for visitors.
 */
export const taskDetailsSchema = taskSchema.extend({
  my_submission: ownSubmissionSchema.nullable().optional(),
  my_reservation: reservationSchema.nullable().optional(),
});
export type TaskDetails = z.infer<typeof taskDetailsSchema>;

export const taskSorts = ["newest", "price_desc", "price_asc", "pay_per_hour", "ending_soon"] as const;
export type TaskSort = (typeof taskSorts)[number];

/** An empty search box sends `q=`: the same as no search. */
const emptyAsAbsent = (value: unknown) => (value === "" ? undefined : value);

/** What both task browsers filter by: words in the title or details, a category, a least reward. */
export const taskFiltersSchema = z.object({
  q: z.preprocess(emptyAsAbsent, queryTextSchema("Search", 200)),
  category: z.preprocess(emptyAsAbsent, taskCategorySchema.optional()),
  min_reward: z.preprocess(
    emptyAsAbsent,
    z.coerce
      .number({ error: "Least reward must be a number" })
      .int("Least reward must be a whole number of coins")
      .min(1, "Least reward must be at least 1 coin")
      .max(
        MAX_PAYABLE_AMOUNT,
        `Least reward must be at most ${MAX_PAYABLE_AMOUNT.toLocaleString("en-US")} coins`,
      )
      .optional(),
  ),
  sort: z.enum(taskSorts).default("newest"),
});
export type TaskFilters = z.infer<typeof taskFiltersSchema>;

/** Query of GET /api/tasks: the public list, by cursor. */
export const publicTaskQuerySchema = taskFiltersSchema.extend({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(20),
  cursor: cursorSchema,
});
export type PublicTaskQuery = z.infer<typeof publicTaskQuerySchema>;

/** Query of GET /api/worker/tasks: the same filters, by page number or cursor. */
export const workerTaskQuerySchema = largePageQuerySchema.extend(taskFiltersSchema.shape);
export type WorkerTaskQuery = z.infer<typeof workerTaskQuerySchema>;

/**
 * A page of a task browser: `total_estimate` counts the matching tasks up to
 * LARGE_LIST_COUNT_CAP (`total_capped` when there are more), for "1,000+ tasks".
 */
export const taskSearchPageSchema = cursorPageOf(taskSchema).extend({
  total_estimate: z.number().int(),
  total_capped: z.boolean(),
});
export type TaskSearchPage = z.infer<typeof taskSearchPageSchema>;

export const categorySchema = z.object({ id: taskCategorySchema, name: z.string() });
export type Category = z.infer<typeof categorySchema>;
