import {
  idParamsSchema,
  pageOf,
  rejectionSchema,
  submissionListQuerySchema,
  submissionSchema,
  submitWorkSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { readMultipart } from "../../lib/multipart.ts";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { fieldMessages } from "../../plugins/errors.ts";
import { listBuyerSubmissions, listWorkerSubmissions } from "./lists.ts";
import { approveSubmission, rejectSubmission } from "./review.ts";
import { submitWork } from "./service.ts";

const idParams = idParamsSchema("Unknown id");

export const submissionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/tasks/:id/submissions",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Submit your work for a task, in your reserved slot or taking a free one",
        description:
          "JSON {submission_details}, or multipart/form-data with submission_details and up to 3 image files named attachments (each at most 5 MB; a task's proof_images says how many it requires). 409 NO_SLOTS_LEFT when no slot is free and you hold none.",
        consumes: ["application/json", "multipart/form-data"],
        params: idParams,
        response: { 201: submissionSchema },
      },
    },
    async (request, reply) => {
      const { id } = await currentUser(request);
      const form = request.isMultipart() ? await readMultipart(request) : null;
      const parsed = submitWorkSchema.safeParse(form ? form.fields : request.body);
      if (!parsed.success) {
        const details = fieldMessages(parsed.error.issues);
        throw new AppError("VALIDATION", Object.values(details)[0] ?? "Some fields are invalid", details);
      }
      const submission = await submitWork(app.db, {
        workerId: id,
        taskId: request.params.id,
        details: parsed.data.submission_details,
        attachments: form?.files.attachments ?? [],
        now: app.clock(),
        autoApproveDays: app.env.AUTO_APPROVE_DAYS,
      });
      return reply.status(201).send(submission);
    },
  );

  app.get(
    "/api/worker/submissions",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Your submissions, newest first",
        querystring: submissionListQuerySchema,
        response: { 200: pageOf(submissionSchema) },
      },
    },
    async (request) => {
      const { status, appeal, ...page } = request.query;
      return listWorkerSubmissions(app.db, (await currentUser(request)).id, page, { status, appeal });
    },
  );

  app.get(
    "/api/buyer/submissions",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Submissions on your tasks, newest first",
        querystring: submissionListQuerySchema,
        response: { 200: pageOf(submissionSchema) },
      },
    },
    async (request) => {
      const { status, appeal, ...page } = request.query;
      return listBuyerSubmissions(app.db, (await currentUser(request)).id, page, { status, appeal });
    },
  );

  app.post(
    "/api/submissions/:id/approve",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Approve a pending submission: the worker is paid",
        params: idParams,
        response: { 200: submissionSchema },
      },
    },
    async (request) =>
      approveSubmission(app.db, {
        reviewer: { buyerId: (await currentUser(request)).id },
        submissionId: request.params.id,
        now: app.clock(),
      }),
  );

  app.post(
    "/api/submissions/:id/reject",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Reject a pending submission with a reason",
        params: idParams,
        body: rejectionSchema,
        response: { 200: submissionSchema },
      },
    },
    async (request) =>
      rejectSubmission(app.db, {
        reviewer: { buyerId: (await currentUser(request)).id },
        submissionId: request.params.id,
        reason: request.body.reason,
        now: app.clock(),
      }),
  );
};
