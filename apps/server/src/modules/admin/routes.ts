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
  refundedCoinsSchema,
  taskSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireAdminWithTwoFactor, requireRole } from "../../plugins/auth-guard.ts";
import { deleteTask, listAllTasks } from "../tasks/service.ts";
import { changeRole, deleteUser, listAudit, listUsers } from "./service.ts";

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

  app.delete(
    "/api/admin/users/:id",
    {
      ...admin,
      schema: {
        tags: ["admin"],
        summary:
          "Soft-delete a user: sign-in refused, open tasks refunded, pending withdrawals returned, pending submissions rejected, then the coins forfeited or paid out",
        description:
          'JSON body `{"coins": "forfeit"}` (the coins go back to the platform) or `{"coins": "payout", "payout_reference": "..."}` (recorded as paid to the person outside the app). Required: no deleted account keeps coins.',
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
      ...admin,
      schema: {
        tags: ["admin"],
        summary: "Delete any task; the buyer is refunded as when they delete it",
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
