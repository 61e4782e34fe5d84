import type { CreateTaskFields } from "@taskmint/shared";

/** A new task's columns from its posted fields; ids, picture and time are the caller's. */
export const taskColumnsOf = (fields: CreateTaskFields) => ({
  title: fields.task_title,
  detail: fields.task_detail,
  submissionInfo: fields.submission_info,
  requiredWorkers: fields.required_workers,
  payableAmount: fields.payable_amount,
  completionDate: fields.completion_date,
  category: fields.category,
  estimatedMinutes: fields.estimated_minutes,
  timeLimitMinutes: fields.time_limit_minutes,
  proofImages: fields.proof_images,
  minApprovalRate: fields.min_approval_rate,
  minLevel: fields.min_level,
});
