import {
  idParamsSchema,
  pageOf,
  rejectionSchema,
  submissionListQuerySchema,
  submissionSchema,
  submitWorkSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import {
  approveSubmission,
  listBuyerSubmissions,
  listWorkerSubmissions,
  rejectSubmission,
  submitWork,
} from "./service.ts";

const idParams = idParamsSchema("Unknown id");

export const submissionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/tasks/:id/submissions",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Submit your work for a task, taking one of its slots",
        params: idParams,
        body: submitWorkSchema,
        response: { 201: submissionSchema },
      },
    },
    async (request, reply) => {
      const { id } = await currentUser(request);
      const submission = await submitWork(app.db, {
        workerId: id,
        taskId: request.params.id,
        details: request.body.submission_details,
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
      const { status, ...page } = request.query;
      return listWorkerSubmissions(app.db, (await currentUser(request)).id, page, status);
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
      const { status, ...page } = request.query;
      return listBuyerSubmissions(app.db, (await currentUser(request)).id, page, status);
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
