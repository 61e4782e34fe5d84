import {
  deletedAccountCoinsChoices,
  deleteUserSchema,
  largePageOf,
  largePageQuerySchema,
  pageOf,
  pageQuerySchema,
  queryTextSchema,
  ROLES,
  taskSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { auditActions } from "../../db/schema/index.ts";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { deleteTask, listAllTasks } from "../tasks/service.ts";
import { changeRole, deleteUser, listAudit, listUsers } from "./service.ts";

const idParams = z.object({ id: z.uuid("Unknown id") });
const adminUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  photo: z.string().nullable(),
  role: z.enum(ROLES),
  coins: z.number().int(),
  created_at: z.string(),
});
const auditRecordSchema = z.object({
  id: z.string(),
  actor_name: z.string(),
  actor_email: z.string(),
  action: z.enum(auditActions),
  target_type: z.string(),
  target_id: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { preHandler: requireRole("admin") };

  app.get(
    "/api/admin/users",
    {
      ...admin,
      schema: {
        tags: ["admin"],
        summary: "Users, by name; search by name or email, filter by role",
        querystring: largePageQuerySchema.extend({
          q: queryTextSchema("Search", 200),
          role: z.enum(ROLES).optional(),
        }),
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
      ...admin,
      schema: {
        tags: ["admin"],
        summary: "Change a user's role (the last admin stays an admin)",
        params: idParams,
        body: z.object({ role: z.enum(ROLES) }).strict(),
        response: { 200: adminUserSchema },
      },
    },
    async (request) =>
      changeRole(app.db, (await currentUser(request)).id, request.params.id, request.body.role),
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
        response: {
          200: z.object({
            deleted: z.literal(true),
            coins: z.enum(deletedAccountCoinsChoices),
            settled_coins: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const { settledCoins } = await deleteUser(
        app.db,
        (await currentUser(request)).id,
        request.params.id,
        request.body,
        app.clock(),
      );
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
        response: { 200: z.object({ refunded_coins: z.number().int() }) },
      },
    },
    async (request) => deleteTask(app.db, await currentUser(request), request.params.id),
  );

  app.get(
    "/api/admin/audit",
    {
      ...admin,
      schema: {
        tags: ["admin"],
        summary: "The audit trail of admin actions, newest first",
        querystring: pageQuerySchema.extend({ action: z.enum(auditActions).optional() }),
        response: { 200: pageOf(auditRecordSchema) },
      },
    },
    (request) => {
      const { action, ...page } = request.query;
      return listAudit(app.db, { action }, page);
    },
  );
};
