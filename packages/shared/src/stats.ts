import { z } from "zod";
import { workerReputationSchema } from "./trust.ts";

// The figures of each role's home page and the public top workers: apart from the task schemas, so
// Home's top workers do not bring every task schema into its script.

export const workerStatsSchema = z.object({
  total_submissions: z.number().int(),
  pending_submissions: z.number().int(),
  total_earnings: z.number().int(),
});
export type WorkerStats = z.infer<typeof workerStatsSchema>;

export const buyerStatsSchema = z.object({
  totalTasks: z.number().int(),
  pendingWorkers: z.number().int(),
  totalPayments: z.number(),
});
export type BuyerStats = z.infer<typeof buyerStatsSchema>;

export const topWorkerSchema = z.object({
  id: z.string(),
  name: z.string(),
  photo: z.string().nullable(),
  coins: z.number().int(),
  reputation: workerReputationSchema,
});
export type TopWorker = z.infer<typeof topWorkerSchema>;

export const adminStatsSchema = z.object({
  totalWorkers: z.number().int(),
  totalBuyers: z.number().int(),
  totalCoins: z.number().int(),
  totalPayments: z.number(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

export const dailyActivitySchema = z.object({
  date: z.string(),
  coins_issued: z.number().int(),
  coins_paid_out: z.number().int(),
  tasks_created: z.number().int(),
  submissions: z.number().int(),
});
export type DailyActivity = z.infer<typeof dailyActivitySchema>;
