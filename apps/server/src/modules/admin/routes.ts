import { adminEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireAdminWithTwoFactor } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { deleteTask, listAllTasks } from "../tasks/service.ts";
import { changeRole, deleteUser, listAudit, listUsers, payoutReview } from "./service.ts";

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.listUsers, (request) => {
    const { q, role, ...page } = request.query;
    return listUsers(app.db, { q: q || undefined, role }, page);
  });

  route(
    app,
    endpoints.changeUserRole,
    (request) =>
      changeRole(app.db, {
        adminId: request.sessionUser.id,
        userId: request.params.id,
        role: request.body.role,
      }),
    { preHandler: requireAdminWithTwoFactor },
  );

  route(app, endpoints.reviewPayoutOnDeletion, (request) =>
    payoutReview(app.db, request.params.id, request.now),
  );

  route(
    app,
    endpoints.deleteUser,
    async (request) => {
      const { settledCoins } = await deleteUser(app.db, {
        adminId: request.sessionUser.id,
        userId: request.params.id,
        choice: request.body,
        now: request.now,
      });
      return { deleted: true as const, coins: request.body.coins, settled_coins: settledCoins };
    },
    { preHandler: requireAdminWithTwoFactor },
  );

  route(app, endpoints.listAllTasks, (request) => listAllTasks(app.db, request.query));

  route(
    app,
    endpoints.deleteAnyTask,
    (request) =>
      deleteTask(app.db, { actor: request.sessionUser, taskId: request.params.id, now: request.now }),
    { preHandler: requireAdminWithTwoFactor },
  );

  route(app, endpoints.listAuditTrail, (request) => {
    const { action, ...page } = request.query;
    return listAudit(app.db, { action }, page);
  });
};
