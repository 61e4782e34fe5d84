import { z } from "zod";
import {
  categorySchema,
  createTaskFieldsSchema,
  idParamsSchema,
  editableTaskFieldsSchema,
  largePageOf,
  workerTaskQuerySchema,
  taskSearchPageSchema,
  pageOf,
  pageQuerySchema,
  publicTaskQuerySchema,
  refundedCoinsSchema,
  taskDetailsSchema,
  taskSchema,
  TASK_CATEGORIES,
  type TaskSearchPage,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { readMultipart, singleFile } from "../../lib/multipart.ts";
import { currentUser, requireRole, sessionUser } from "../../plugins/auth-guard.ts";
import { fieldMessages } from "../../plugins/errors.ts";
import { listBuyerTasks, listPublicTasksJson, listWorkerTasks } from "./lists.ts";
import { createTask, deleteTask, getTaskDetails, updateTask } from "./service.ts";

const taskParams = idParamsSchema("Unknown task");

export const taskRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/categories",
    {
      schema: {
        tags: ["tasks"],
        summary: "The task categories, in the order the filters show them",
        response: { 200: z.array(categorySchema) },
      },
    },
    async () => [...TASK_CATEGORIES],
  );

  app.get(
    "/api/tasks",
    {
      schema: {
        tags: ["tasks"],
        summary: "Open tasks with a free slot, by cursor (user_email only for signed-in users)",
        description:
          "q searches the title and details (English words, web-search syntax: quotes, -word, or); category and min_reward filter; sort is newest, price_desc, price_asc, pay_per_hour or ending_soon. total_estimate counts the matches up to 1,000 (total_capped beyond).",
        querystring: publicTaskQuerySchema,
        response: { 200: taskSearchPageSchema },
      },
    },
    async (request, reply) => {
      const audience = (await sessionUser(request)) ? "signed-in" : "visitor";
      const body = await listPublicTasksJson(app.db, {
        query: request.query,
        now: app.clock(),
        audience,
        firstPages: app.publicTaskPages,
        commonSearches: app.commonSearches,
      });
      // Already the JSON of the schema above (the first pages' cache serializes once); Fastify
      // sends a string as it is, and only the type provider needs telling.
      return reply.type("application/json; charset=utf-8").send(body as unknown as TaskSearchPage);
    },
  );

  app.get(
    "/api/tasks/:id",
    {
      schema: {
        tags: ["tasks"],
        summary: "One task (user_email only for signed-in users), with your own submission to it",
        description:
          "For a signed-in user, my_submission is their submission to this task (its status, and the rejection reason or the auto-approval date), or null if they have none; my_reservation is their live reservation of it, or null. Both absent for visitors.",
        params: taskParams,
        response: { 200: taskDetailsSchema },
      },
    },
    async (request) =>
      getTaskDetails(app.db, {
        taskId: request.params.id,
        viewer: await sessionUser(request),
        now: app.clock(),
      }),
  );

  app.post(
    "/api/tasks",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["tasks"],
        summary: "Post a task, funding its escrow from your coins",
        description:
          "multipart/form-data: task_title, task_detail, required_workers, payable_amount, completion_date (YYYY-MM-DD, today or later), submission_info and the file task_image; optional category (default other), estimated_minutes (1-600, default 5), time_limit_minutes (5-1440, default 60) and proof_images (0-3, default 0). Costs required_workers x payable_amount coins; 409 INSUFFICIENT_COINS saves nothing.",
        consumes: ["multipart/form-data"],
        response: { 201: taskSchema },
      },
    },
    async (request, reply) => {
      const { id } = await currentUser(request);
      const form = await readMultipart(request);
      const parsed = createTaskFieldsSchema.safeParse(form.fields);
      const image = singleFile(form, "task_image");
      if (!parsed.success || !image) {
        const details = parsed.success ? {} : fieldMessages(parsed.error.issues);
        if (!image) details.task_image = "Task image is required";
        throw new AppError("VALIDATION", Object.values(details)[0] ?? "Some fields are invalid", details);
      }
      const task = await createTask(app.db, { buyerId: id, fields: parsed.data, image, now: app.clock() });
      return reply.status(201).send(task);
    },
  );

  app.patch(
    "/api/tasks/:id",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["tasks"],
        summary: "Edit your task's title, detail and submission info",
        params: taskParams,
        body: editableTaskFieldsSchema.strict(),
        response: { 200: taskSchema },
      },
    },
    async (request) =>
      updateTask(app.db, {
        actor: await currentUser(request),
        taskId: request.params.id,
        fields: request.body,
      }),
  );

  const deleteSchema = {
    params: taskParams,
    response: { 200: refundedCoinsSchema },
  };
  app.delete(
    "/api/tasks/:id",
    {
      preHandler: requireRole("buyer", "admin"),
      schema: {
        tags: ["tasks"],
        summary: "Delete your task; its open slots' coins come back",
        ...deleteSchema,
      },
    },
    async (request) =>
      deleteTask(app.db, { actor: await currentUser(request), taskId: request.params.id, now: app.clock() }),
  );

  app.get(
    "/api/worker/tasks",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Tasks you can still submit to, searched, filtered and ordered like GET /api/tasks",
        querystring: workerTaskQuerySchema,
        response: { 200: largePageOf(taskSchema).extend({ total_estimate: z.number().int() }) },
      },
    },
    async (request) =>
      listWorkerTasks(app.db, {
        workerId: (await currentUser(request)).id,
        query: request.query,
        now: app.clock(),
        commonSearches: app.commonSearches,
      }),
  );

  app.get(
    "/api/buyer/tasks",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Your tasks, latest completion date first",
        querystring: pageQuerySchema,
        response: { 200: pageOf(taskSchema) },
      },
    },
    async (request) => listBuyerTasks(app.db, (await currentUser(request)).id, request.query),
  );
};
