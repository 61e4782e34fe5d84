import {
  adminUserSchema,
  adminUsersQuerySchema,
  auditQuerySchema,
  auditRecordSchema,
  changeRoleSchema,
  deletedUserSchema,
} from "../admin.ts";
import { idParamsSchema, refundedCoinsSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import { deleteUserSchema, payoutReviewSchema } from "../money.ts";
import { largePageOf, largePageQuerySchema, pageOf } from "../paging.ts";
import { taskSchema } from "../tasks.ts";

const idParams = idParamsSchema("Unknown id");

/** The admins' users, tasks and audit trail. */
export const adminEndpoints = {
  listUsers: defineEndpoint({
    method: "GET",
    path: "/api/admin/users",
    operationId: "listUsers",
    access: "admin",
    tags: ["admin"],
    summary: "Users, by name; search by name or email, filter by role",
    query: adminUsersQuerySchema,
    response: { 200: largePageOf(adminUserSchema) },
  }),
  changeUserRole: defineEndpoint({
    method: "PATCH",
    path: "/api/admin/users/:id",
    operationId: "changeUserRole",
    access: "admin",
    tags: ["admin"],
    summary: "Change a user's role (the last admin stays an admin)",
    description:
      "Changes access: needs a session that passed a second factor (403 TWO_FACTOR_REQUIRED, rule R30).",
    params: idParams,
    body: changeRoleSchema,
    response: { 200: adminUserSchema },
    errors: [409],
  }),
  reviewPayoutOnDeletion: defineEndpoint({
    method: "GET",
    path: "/api/admin/users/:id/payout-review",
    operationId: "reviewPayoutOnDeletion",
    access: "admin",
    tags: ["admin"],
    summary:
      "Before deleting a user with a payout: their balance, whether they may be paid (a confirmed address) and the risk, as a withdrawal is reviewed",
    params: idParams,
    response: { 200: payoutReviewSchema },
  }),
  deleteUser: defineEndpoint({
    method: "DELETE",
    path: "/api/admin/users/:id",
    operationId: "deleteUser",
    access: "admin",
    tags: ["admin"],
    summary:
      "Soft-delete a user: sign-in refused, open tasks refunded, pending withdrawals returned, pending submissions rejected, then the coins forfeited or paid out",
    description:
      'JSON body `{"coins": "forfeit"}` (the coins go back to the platform) or `{"coins": "payout", "payout_reference": "...", "confirm_high_risk"?: true}` (recorded as paid to the person outside the app). Required: no deleted account keeps coins. Needs a session that passed a second factor (403 TWO_FACTOR_REQUIRED). A payout is reviewed as a withdrawal is: 403 EMAIL_NOT_VERIFIED when the user never confirmed their address, 409 RISK_CONFIRMATION_REQUIRED (with the risk) for a high risk unless confirmed.',
    params: idParams,
    body: deleteUserSchema,
    response: { 200: deletedUserSchema },
    errors: [409],
  }),
  listAllTasks: defineEndpoint({
    method: "GET",
    path: "/api/admin/tasks",
    operationId: "listAllTasks",
    access: "admin",
    tags: ["admin"],
    summary: "All live tasks, newest first",
    query: largePageQuerySchema,
    response: { 200: largePageOf(taskSchema) },
  }),
  deleteAnyTask: defineEndpoint({
    method: "DELETE",
    path: "/api/admin/tasks/:id",
    operationId: "deleteAnyTask",
    access: "admin",
    tags: ["admin"],
    summary: "Delete any task; the buyer is refunded as when they delete it",
    description:
      "Moves coins: needs a session that passed a second factor (403 TWO_FACTOR_REQUIRED, rule R30).",
    params: idParams,
    response: { 200: refundedCoinsSchema },
    errors: [409],
  }),
  listAuditTrail: defineEndpoint({
    method: "GET",
    path: "/api/admin/audit",
    operationId: "listAuditTrail",
    access: "admin",
    tags: ["admin"],
    summary: "The audit trail of admin actions, newest first",
    query: auditQuerySchema,
    response: { 200: pageOf(auditRecordSchema) },
  }),
};
