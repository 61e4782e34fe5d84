import { TASK_CATEGORIES, tasksEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { readForm } from "../../lib/multipart.ts";
import { sessionUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { categoryPicture } from "./category-picture.ts";
import { listBuyerTasks, listPublicTasksJson, listWorkerTasks } from "./lists.ts";
import { createTask, deleteTask, getTaskDetails, updateTask } from "./service.ts";

export const taskRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.listCategories, () => [...TASK_CATEGORIES]);

  route(app, endpoints.getCategoryPicture, (request, reply) =>
    reply
      .type("image/svg+xml")
      .header("cache-control", "public, max-age=86400")
      .header("content-security-policy", "default-src 'none'")
      .send(categoryPicture(request.params.id)),
  );

  route(app, endpoints.listTasks, async (request, reply) => {
    const audience = (await sessionUser(request)) ? "signed-in" : "visitor";
    const body = await listPublicTasksJson(app.db, {
      query: request.query,
      now: request.now,
      audience,
      firstPages: app.publicTaskPages,
      commonSearches: app.commonSearches,
    });
    // Already the JSON of the declared answer (the first pages' cache serializes once): Fastify
    // sends a string as it is.
    return reply.type("application/json; charset=utf-8").send(body);
  });

  route(app, endpoints.getTask, async (request) =>
    getTaskDetails(app.db, {
      taskId: request.params.id,
      viewer: await sessionUser(request),
      now: request.now,
    }),
  );

  route(app, endpoints.createTask, async (request) => {
    const { id, apiKeyId } = request.sessionUser;
    const { fields, files } = await readForm(request, endpoints.createTask.form);
    // Decision 036: a program's task may come without an image (its category's picture stands in).
    if (!files.task_image && !apiKeyId)
      throw new AppError("VALIDATION", "Task image is required", { task_image: "Task image is required" });
    const task = await createTask(app.db, { buyerId: id, fields, image: files.task_image, now: request.now });
    return task;
  });

  route(app, endpoints.updateTask, async (request) =>
    updateTask(app.db, {
      actor: request.sessionUser,
      taskId: request.params.id,
      fields: request.body,
    }),
  );

  route(app, endpoints.deleteTask, async (request) =>
    deleteTask(app.db, { actor: request.sessionUser, taskId: request.params.id, now: request.now }),
  );

  route(app, endpoints.listWorkerTasks, async (request) =>
    listWorkerTasks(app.db, {
      workerId: request.sessionUser.id,
      query: request.query,
      now: request.now,
      commonSearches: app.commonSearches,
    }),
  );

  route(app, endpoints.listBuyerTasks, async (request) =>
    listBuyerTasks(app.db, request.sessionUser.id, request.query),
  );
};
