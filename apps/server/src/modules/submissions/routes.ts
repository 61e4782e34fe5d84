import { submissionsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { readForm } from "../../lib/multipart.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { listBuyerSubmissions, listWorkerSubmissions } from "./lists.ts";
import { approveSubmission, rejectSubmission } from "./review.ts";
import { submitWork } from "./service.ts";

export const submissionRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.submitWork, async (request) => {
    const { id } = request.sessionUser;
    const { fields, files } = await readForm(request, endpoints.submitWork.form);
    const submission = await submitWork(app.db, {
      workerId: id,
      taskId: request.params.id,
      details: fields.submission_details,
      attachments: files.attachments,
      now: request.now,
      autoApproveDays: app.env.AUTO_APPROVE_DAYS,
    });
    return submission;
  });

  route(app, endpoints.listWorkerSubmissions, (request) => {
    const { status, appeal, ...page } = request.query;
    return listWorkerSubmissions(app.db, request.sessionUser.id, page, { status, appeal });
  });

  route(app, endpoints.listBuyerSubmissions, (request) => {
    const { status, appeal, ...page } = request.query;
    return listBuyerSubmissions(app.db, request.sessionUser.id, page, { status, appeal });
  });

  route(app, endpoints.approveSubmission, ({ sessionUser, params, now }) =>
    approveSubmission(app.db, { reviewer: { buyerId: sessionUser.id }, submissionId: params.id, now }),
  );

  route(app, endpoints.rejectSubmission, ({ sessionUser, params, body, now }) =>
    rejectSubmission(app.db, {
      reviewer: { buyerId: sessionUser.id },
      submissionId: params.id,
      reason: body.reason,
      now,
    }),
  );
};
