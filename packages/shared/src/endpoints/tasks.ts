import { z } from "zod";
import { idParamsSchema, refundedCoinsSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import { optionalIdempotencyHeadersSchema } from "../idempotency.ts";
import { largePageOf, pageOf, pageQuerySchema } from "../paging.ts";
import {
  categorySchema,
  createTaskFieldsSchema,
  editableTaskFieldsSchema,
  publicTaskQuerySchema,
  taskCategorySchema,
  taskDetailsSchema,
  taskSchema,
  taskSearchPageSchema,
  workerTaskQuerySchema,
} from "../tasks.ts";

const taskParams = idParamsSchema("Unknown task");

/** Browsing, posting, editing and deleting tasks, and the worker's and the buyer's task lists. */
export const tasksEndpoints = {
  listCategories: defineEndpoint({
    method: "GET",
    path: "/api/categories",
    operationId: "listCategories",
    access: "public",
    tags: ["tasks"],
    summary: "The task categories, in the order the filters show them",
    response: { 200: z.array(categorySchema) },
  }),
  getCategoryPicture: defineEndpoint({
    method: "GET",
    path: "/api/categories/:id/picture",
    operationId: "getCategoryPicture",
    access: "public",
    tags: ["tasks"],
    summary: "A category's picture (SVG): the image of a task posted by a program without one",
    params: z.object({ id: taskCategorySchema }),
  }),
  listTasks: defineEndpoint({
    method: "GET",
    path: "/api/tasks",
    operationId: "listTasks",
    access: "optional",
    tags: ["tasks"],
    summary: "Open tasks with a free slot, by cursor (user_email only for signed-in users)",
    description:
      "q searches the title and details (English words, web-search syntax: quotes, -word, or); category and min_reward filter; sort is newest, price_desc, price_asc, pay_per_hour or ending_soon. total_estimate counts the matches up to 1,000 (total_capped beyond).",
    query: publicTaskQuerySchema,
    response: { 200: taskSearchPageSchema },
  }),
  getTask: defineEndpoint({
    method: "GET",
    path: "/api/tasks/:id",
    operationId: "getTask",
    access: "optional",
    tags: ["tasks"],
    summary: "One task (user_email only for signed-in users), with your own submission to it",
    description:
      "For a signed-in user, my_submission is their submission to this task (its status, and the rejection reason or the auto-approval date), or null if they have none; my_reservation is their live reservation of it, or null. Both absent for visitors.",
    params: taskParams,
    response: { 200: taskDetailsSchema },
  }),
  createTask: defineEndpoint({
    method: "POST",
    path: "/api/tasks",
    operationId: "createTask",
    access: "buyer",
    keys: true,
    headers: optionalIdempotencyHeadersSchema,
    tags: ["tasks"],
    summary: "Post a task, funding its escrow from your coins",
    description:
      "multipart/form-data: task_title, task_detail, required_workers, payable_amount, completion_date (YYYY-MM-DD, today or later), submission_info and the file task_image (optional with an API key: a task posted by a program shows its category's picture); optional category (default other), estimated_minutes (1-600, default 5), time_limit_minutes (5-1440, default 60) and proof_images (0-3, default 0). Costs required_workers x payable_amount coins; 409 INSUFFICIENT_COINS saves nothing. Takes an Idempotency-Key.",
    form: { fields: createTaskFieldsSchema, files: { task_image: { required: false } } },
    response: { 201: taskSchema },
    errors: [409, 413, 415],
  }),
  updateTask: defineEndpoint({
    method: "PATCH",
    path: "/api/tasks/:id",
    operationId: "updateTask",
    access: "buyer",
    keys: true,
    tags: ["tasks"],
    summary: "Edit your task's title, detail and submission info",
    params: taskParams,
    body: editableTaskFieldsSchema.strict(),
    response: { 200: taskSchema },
  }),
  deleteTask: defineEndpoint({
    method: "DELETE",
    path: "/api/tasks/:id",
    operationId: "deleteTask",
    access: "buyer+admin",
    keys: true,
    tags: ["tasks"],
    summary: "Delete your task; its open slots' coins come back",
    params: taskParams,
    response: { 200: refundedCoinsSchema },
    errors: [409],
  }),
  listWorkerTasks: defineEndpoint({
    method: "GET",
    path: "/api/worker/tasks",
    operationId: "listWorkerTasks",
    access: "worker",
    tags: ["worker"],
    summary: "Tasks you can still submit to, searched, filtered and ordered like GET /api/tasks",
    query: workerTaskQuerySchema,
    response: { 200: largePageOf(taskSchema).extend({ total_estimate: z.number().int() }) },
  }),
  listBuyerTasks: defineEndpoint({
    method: "GET",
    path: "/api/buyer/tasks",
    operationId: "listBuyerTasks",
    access: "buyer",
    keys: true,
    tags: ["buyer"],
    summary: "Your tasks, latest completion date first",
    query: pageQuerySchema,
    response: { 200: pageOf(taskSchema) },
  }),
};
