import {
  adminUserSchema,
  adminUsersQuerySchema,
  auditQuerySchema,
  auditRecordSchema,
  changeRoleSchema,
  deletedUserSchema,
  deleteUserSchema,
  idParamsSchema,
  largePageOf,
  largePageQuerySchema,
  pageOf,
  payoutReviewSchema,
  refundedCoinsSchema,
  taskSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireAdminWithTwoFactor, requireRole } from "../../plugins/auth-guard.ts";
import { deleteTask, listAllTasks } from "../tasks/service.ts";
import { changeRole, deleteUser, listAudit, listUsers, payoutReview } from "./service.ts";

const idParams = idParamsSchema("Unknown id");

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { preHandler: requireRole("admin") };

  app.get(
    "/api/admin/users",
    {
      ...admin,
      schema: {
        tags: ["admin"],
        summary: "Users, by name; search by name or email, filter by role",
        querystring: adminUsersQuerySchema,
        response: { 200: largePageOf(adminUserSchema) },
      },
    },
    (request) => {
      const { q, role, ...page } = request.query;
      return listUsers(app.db, { q: q || undefined, role }, page);
    },
  );

  app.patch(
    "/api/admin/users/:id",
    {
      preHandler: requireAdminWithTwoFactor,
      schema: {
        tags: ["admin"],
        summary: "Change a user's role (the last admin stays an admin)",
        description:
          "Changes access: needs a session that passed a second factor (403 TWO_FACTOR_REQUIRED, rule R30).",
        params: idParams,
        body: changeRoleSchema,
        response: { 200: adminUserSchema },
      },
    },
    async (request) =>
      changeRole(app.db, {
        adminId: (await currentUser(request)).id,
        userId: request.params.id,
        role: request.body.role,
      }),
  );

  app.get(
    "/api/admin/users/:id/payout-review",
    {
      ...admin,
      schema: {
        tags: ["admin"],
        summary:
          "Before deleting a user with a payout: their balance, whether they may be paid (a confirmed address) and the risk, as a withdrawal is reviewed",
        params: idParams,
        response: { 200: payoutReviewSchema },
      },
    },
    (request) => payoutReview(app.db, request.params.id, app.clock()),
  );

  app.delete(
    "/api/admin/users/:id",
    {
      preHandler: requireAdminWithTwoFactor,
      schema: {
        tags: ["admin"],
        summary:
          "Soft-delete a user: sign-in refused, open tasks refunded, pending withdrawals returned, pending submissions rejected, then the coins forfeited or paid out",
        description:
          'JSON body `{"coins": "forfeit"}` (the coins go back to the platform) or `{"coins": "payout", "payout_reference": "...", "confirm_high_risk"?: true}` (recorded as paid to the person outside the app). Required: no deleted account keeps coins. Needs a session that passed a second factor (403 TWO_FACTOR_REQUIRED). A payout is reviewed as a withdrawal is: 403 EMAIL_NOT_VERIFIED when the user never confirmed their address, 409 RISK_CONFIRMATION_REQUIRED (with the risk) for a high risk unless confirmed.',
        params: idParams,
        body: deleteUserSchema,
        response: { 200: deletedUserSchema },
      },
    },
    async (request) => {
      const { settledCoins } = await deleteUser(app.db, {
        adminId: (await currentUser(request)).id,
        userId: request.params.id,
        choice: request.body,
        now: app.clock(),
      });
      return { deleted: true as const, coins: request.body.coins, settled_coins: settledCoins };
    },
  );

  app.get(
    "/api/admin/tasks",
    {
      ...admin,
      schema: {
        tags: ["admin"],
        summary: "All live tasks, newest first",
        querystring: largePageQuerySchema,
        response: { 200: largePageOf(taskSchema) },
      },
    },
    (request) => listAllTasks(app.db, request.query),
  );

  app.delete(
    "/api/admin/tasks/:id",
    {
      preHandler: requireAdminWithTwoFactor,
      schema: {
        tags: ["admin"],
        summary: "Delete any task; the buyer is refunded as when they delete it",
        description:
          "Moves coins: needs a session that passed a second factor (403 TWO_FACTOR_REQUIRED, rule R30).",
        params: idParams,
        response: { 200: refundedCoinsSchema },
      },
    },
    async (request) =>
      deleteTask(app.db, { actor: await currentUser(request), taskId: request.params.id, now: app.clock() }),
  );

  app.get(
    "/api/admin/audit",
    {
      ...admin,
      schema: {
        tags: ["admin"],
        summary: "The audit trail of admin actions, newest first",
        querystring: auditQuerySchema,
        response: { 200: pageOf(auditRecordSchema) },
      },
    },
    (request) => {
      const { action, ...page } = request.query;
      return listAudit(app.db, { action }, page);
    },
  );
};
