import { z } from "zod";
import { textSchema } from "./text.ts";
import { DAY_MS } from "./time.ts";

// Issue 18 (rules R21-R23): reputation, qualifications, blocks, appeals and bonuses.

export const workerLevels = ["new", "bronze", "silver", "gold"] as const;
export type WorkerLevel = (typeof workerLevels)[number];
export const workerLevelSchema = z.enum(workerLevels, { error: "Choose a level" });

export const LEVEL_NAMES: Record<WorkerLevel, string> = {
  new: "New",
  bronze: "Bronze",
  silver: "Silver",
  gold: "Gold",
};

/** Rule R21: each level's least decided submissions and approval rate (%), highest first. */
export const LEVEL_RULES = [
  { level: "gold", decided: 200, rate: 95 },
  { level: "silver", decided: 50, rate: 90 },
  { level: "bronze", decided: 10, rate: 80 },
] as const satisfies readonly { level: WorkerLevel; decided: number; rate: number }[];

/** What the database keeps per worker: decided submissions by outcome. */
export interface DecidedCounts {
  approved: number;
  rejected: number;
}

/** Approved share of decided submissions as a whole percentage (rounded down), null before any. */
export function approvalRate({ approved, rejected }: DecidedCounts): number | null {
  const decided = approved + rejected;
  return decided === 0 ? null : Math.floor((approved * 100) / decided);
}

/** Rule R21: the highest level whose thresholds the counts meet; "new" below 10 decided. */
export function workerLevel(counts: DecidedCounts): WorkerLevel {
  const decided = counts.approved + counts.rejected;
  const rate = approvalRate(counts) ?? 0;
  return LEVEL_RULES.find((rule) => decided >= rule.decided && rate >= rule.rate)?.level ?? "new";
}

/** Levels at or above `level`: who meets a task's minimum level. */
export const levelsFrom = (level: WorkerLevel): WorkerLevel[] =>
  workerLevels.slice(workerLevels.indexOf(level));

export const workerReputationSchema = z.object({
  /** Whole percent, null until the worker has a decided submission. */
  approval_rate: z.number().int().nullable(),
  decided: z.number().int(),
  level: workerLevelSchema,
});
export type WorkerReputation = z.infer<typeof workerReputationSchema>;

export const workerReputationOf = (counts: DecidedCounts): WorkerReputation => ({
  approval_rate: approvalRate(counts),
  decided: counts.approved + counts.rejected,
  level: workerLevel(counts),
});

/** The level above a worker's and what it asks that they do not have yet (rule R21). */
export interface NextLevelNeeds {
  level: WorkerLevel;
  /** The level's least decided submissions, and how many more the worker needs (0: enough). */
  decided: number;
  more_decided: number;
  /** The level's least approval rate (%), and whether the worker's rate meets it already. */
  rate: number;
  rate_met: boolean;
}

/** What the next level needs of a worker, or null at the top level. */
export function nextLevelNeeds(reputation: WorkerReputation): NextLevelNeeds | null {
  const next = workerLevels[workerLevels.indexOf(reputation.level) + 1];
  const rule = LEVEL_RULES.find((candidate) => candidate.level === next);
  if (!next || !rule) return null;
  return {
    level: next,
    decided: rule.decided,
    more_decided: Math.max(0, rule.decided - reputation.decided),
    rate: rule.rate,
    rate_met: (reputation.approval_rate ?? -1) >= rule.rate,
  };
}

/** A task's requirements of the worker (rule R21). */
export interface Qualification {
  min_approval_rate: number;
  min_level: WorkerLevel;
}

/**
 * Why a worker does not qualify for a task, or null when they do. A worker with no decided
 * submission has no approval rate yet and meets only a minimum of 0 (decision 016).
 */
export function qualificationProblem(reputation: WorkerReputation, task: Qualification): string | null {
  if (!levelsFrom(task.min_level).includes(reputation.level))
    return `This task requires ${LEVEL_NAMES[task.min_level]} level or higher; you are ${LEVEL_NAMES[reputation.level]}`;
  if (task.min_approval_rate > 0 && (reputation.approval_rate ?? -1) < task.min_approval_rate) {
    const yours =
      reputation.approval_rate === null ? "you have none yet" : `yours is ${reputation.approval_rate}%`;
    return `This task requires an approval rate of ${task.min_approval_rate}% or more; ${yours}`;
  }
  return null;
}

/** How many days back a buyer's reputation looks (rule R21). */
export const BUYER_REPUTATION_DAYS = 90;

export const buyerReputationSchema = z.object({
  /** Whole percent of the buyer's decisions in the window that approved, null before any. */
  approval_rate: z.number().int().nullable(),
  /** Median hours from submission to decision in the window, one decimal; null before any. */
  median_review_hours: z.number().nullable(),
  decided: z.number().int(),
});
export type BuyerReputation = z.infer<typeof buyerReputationSchema>;

/** Requirements a buyer sets on a task; absent fields require nothing. */
export const qualificationFieldsSchema = z.object({
  min_approval_rate: z.coerce
    .number({ error: "Least approval rate must be a number" })
    .int("Least approval rate must be a whole number")
    .min(0, "Least approval rate cannot be negative")
    .max(100, "Least approval rate must be at most 100")
    .default(0),
  min_level: workerLevelSchema.default("new"),
});

// Rule R22: appeals.
export const APPEAL_WINDOW_DAYS = 7;
/** Until when a rejection decided at `decidedAt` can be appealed. */
export const appealDeadline = (decidedAt: Date) =>
  new Date(decidedAt.getTime() + APPEAL_WINDOW_DAYS * DAY_MS);
export const APPEAL_ANSWER_DAYS = 3;
export const APPEAL_MESSAGE_MAX = 1_000;

export const appealStatuses = ["open", "upheld_by_buyer", "escalated", "overturned", "upheld"] as const;
export type AppealStatus = (typeof appealStatuses)[number];

export const appealSchema = z.object({
  status: z.enum(appealStatuses),
  message: z.string(),
  /** The buyer's or the admin's answer, once given. */
  answer: z.string().nullable(),
  created_at: z.string(),
  /** When the worker may escalate: at once after an uphold, else 3 days after the appeal. */
  escalate_from: z.string().nullable(),
  decided_by: z.enum(["buyer", "admin"]).nullable(),
  /** Where an overturn's pay came from: the task's escrow, the buyer's wallet or the platform. */
  paid_from: z.enum(["escrow", "buyer", "platform"]).nullable(),
});
export type Appeal = z.infer<typeof appealSchema>;

export const appealRequestSchema = z.object({
  message: textSchema("Your message", { max: APPEAL_MESSAGE_MAX }),
});
export type AppealRequest = z.infer<typeof appealRequestSchema>;

export const appealAnswerSchema = z.object({
  answer: textSchema("An answer", { max: APPEAL_MESSAGE_MAX }),
});
export type AppealAnswer = z.infer<typeof appealAnswerSchema>;

export const appealDecisions = ["overturn", "uphold"] as const;
export const adminAppealDecisionSchema = z.object({
  decision: z.enum(appealDecisions, { error: "Choose whether to keep the rejection or overturn it" }),
  answer: textSchema("An answer", { max: APPEAL_MESSAGE_MAX }),
});
export type AdminAppealDecision = z.infer<typeof adminAppealDecisionSchema>;

// Rule R23: blocks and hidden buyers.
export const BLOCK_NOTE_MAX = 500;

export const blockRequestSchema = z.object({
  worker_id: z.uuid("Unknown worker"),
  note: textSchema("The note", { min: 0, max: BLOCK_NOTE_MAX }).optional(),
});
export type BlockRequest = z.infer<typeof blockRequestSchema>;

export const blockedWorkerSchema = z.object({
  worker_id: z.string(),
  worker_name: z.string(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type BlockedWorker = z.infer<typeof blockedWorkerSchema>;

export const hideBuyerRequestSchema = z.object({ buyer_id: z.uuid("Unknown buyer") });
export type HideBuyerRequest = z.infer<typeof hideBuyerRequestSchema>;

export const hiddenBuyerSchema = z.object({
  buyer_id: z.string(),
  buyer_name: z.string(),
  created_at: z.string(),
});
export type HiddenBuyer = z.infer<typeof hiddenBuyerSchema>;

// Rule R23: bonuses.
export const BONUS_COINS = { min: 1, max: 1_000 } as const;
export const BONUS_MESSAGE_MAX = 500;
/** The header that makes a bonus request safe to retry. */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const idempotencyKeySchema = z
  .string({ error: "Send an Idempotency-Key header" })
  .regex(/^[\x21-\x7e]{1,200}$/, "The Idempotency-Key header must be 1 to 200 visible ASCII characters");

export const bonusRequestSchema = z.object({
  submission_id: z.uuid("Unknown submission"),
  coins: z.coerce
    .number({ error: "Coins must be a number" })
    .int("Coins must be a whole number")
    .min(BONUS_COINS.min, `Send at least ${BONUS_COINS.min} coin`)
    .max(BONUS_COINS.max, `Send at most ${BONUS_COINS.max.toLocaleString("en-US")} coins`),
  message: textSchema("The message", { min: 0, max: BONUS_MESSAGE_MAX }).default(""),
});
export type BonusRequest = z.infer<typeof bonusRequestSchema>;

export const bonusSchema = z.object({
  id: z.string(),
  coins: z.number().int(),
  worker_name: z.string(),
  message: z.string(),
  created_at: z.string(),
});
export type Bonus = z.infer<typeof bonusSchema>;
