import { z } from "zod";
import { ROLES } from "./constants.ts";
import { largePageQuerySchema, pageQuerySchema } from "./paging.ts";
import { userSchema } from "./schemas.ts";
import { queryTextSchema } from "./text.ts";
import { deletedAccountCoinsChoices } from "./money.ts";

/** What the audit trail records: every admin action (docs/decisions/005). */
export const auditActions = [
  "change_role",
  "delete_user",
  "delete_task",
  "approve_withdrawal",
  "reject_withdrawal",
  "decide_appeal",
] as const;
export type AuditAction = (typeof auditActions)[number];

/** The longest search of the admin's user list. */
export const USER_SEARCH_MAX = 200;

/** Query of GET /api/admin/users: a page of users, searched by name or email, of one role or all. */
export const adminUsersQuerySchema = largePageQuerySchema.extend({
  q: queryTextSchema("Search", USER_SEARCH_MAX),
  role: z.enum(ROLES).optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

/** A user as Manage Users lists them: their profile, coins and sign-up date. */
export const adminUserSchema = userSchema.extend({ created_at: z.string() });
export type AdminUser = z.infer<typeof adminUserSchema>;

/** Body of PATCH /api/admin/users/:id. */
export const changeRoleSchema = z.object({ role: z.enum(ROLES) }).strict();
export type ChangeRoleRequest = z.infer<typeof changeRoleSchema>;

/** Answer of DELETE /api/admin/users/:id: what became of the coins, and how many. */
export const deletedUserSchema = z.object({
  deleted: z.literal(true),
  coins: z.enum(deletedAccountCoinsChoices),
  settled_coins: z.number().int(),
});
export type DeletedUser = z.infer<typeof deletedUserSchema>;

/**
 * Who and what an audited action was about, read when the trail is listed (joins, not one
 * lookup per entry); null where it does not apply or the row is gone.
 */
export const auditSubjectSchema = z.object({
  /** The user acted on: whose role changed or account was deleted, the withdrawal's or the submission's worker. */
  user_name: z.string().nullable(),
  /** Whether that user's account has since been deleted. */
  user_deleted: z.boolean(),
  /** The deleted task, or the appealed submission's task. */
  task_title: z.string().nullable(),
  /** That task's buyer. */
  buyer_name: z.string().nullable(),
  /** The withdrawal's coins and dollars (cents). */
  coins: z.number().int().nullable(),
  amount_cents: z.number().int().nullable(),
});
export type AuditSubject = z.infer<typeof auditSubjectSchema>;

export const auditRecordSchema = z.object({
  id: z.string(),
  actor_name: z.string(),
  actor_email: z.string(),
  action: z.enum(auditActions),
  target_type: z.string(),
  target_id: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  subject: auditSubjectSchema,
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

export const auditQuerySchema = pageQuerySchema.extend({ action: z.enum(auditActions).optional() });
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** The ledger check's report (rule M3): where the coins are, and every invariant that failed. */
export const ledgerReportSchema = z.object({
  ok: z.boolean(),
  issued: z.number(),
  wallets: z.number(),
  escrow: z.number(),
  held: z.number(),
  paid_out: z.number(),
  /** Coins the platform issued to pay overturned appeals the buyer could not fund (rule R22). */
  platform_paid: z.number(),
  problems: z.array(z.string()),
});
export type LedgerReport = z.infer<typeof ledgerReportSchema>;

export const dailyActivityQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30),
});
