import { TASK_CATEGORIES, tasksEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { readForm } from "../../lib/multipart.ts";
import { currentUser, sessionUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { listBuyerTasks, listPublicTasksJson, listWorkerTasks } from "./lists.ts";
import { createTask, deleteTask, getTaskDetails, updateTask } from "./service.ts";

export const taskRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.listCategories, () => [...TASK_CATEGORIES]);

  route(app, endpoints.listTasks, async (request, reply) => {
    const audience = (await sessionUser(request)) ? "signed-in" : "visitor";
    const body = await listPublicTasksJson(app.db, {
      query: request.query,
      now: app.clock(),
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
      now: app.clock(),
    }),
  );

  route(app, endpoints.createTask, async (request) => {
    const { id } = await currentUser(request);
    const { fields, files } = await readForm(request, endpoints.createTask.form);
    const task = await createTask(app.db, { buyerId: id, fields, image: files.task_image, now: app.clock() });
    return task;
  });

  route(app, endpoints.updateTask, async (request) =>
    updateTask(app.db, {
      actor: await currentUser(request),
      taskId: request.params.id,
      fields: request.body,
    }),
  );

  route(app, endpoints.deleteTask, async (request) =>
    deleteTask(app.db, { actor: await currentUser(request), taskId: request.params.id, now: app.clock() }),
  );

  route(app, endpoints.listWorkerTasks, async (request) =>
    listWorkerTasks(app.db, {
      workerId: (await currentUser(request)).id,
      query: request.query,
      now: app.clock(),
      commonSearches: app.commonSearches,
    }),
  );

  route(app, endpoints.listBuyerTasks, async (request) =>
    listBuyerTasks(app.db, (await currentUser(request)).id, request.query),
  );
};
