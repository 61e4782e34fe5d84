import { submissionsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { readForm } from "../../lib/multipart.ts";
import { currentUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { listBuyerSubmissions, listWorkerSubmissions } from "./lists.ts";
import { approveSubmission, rejectSubmission } from "./review.ts";
import { submitWork } from "./service.ts";

export const submissionRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.submitWork, async (request) => {
    const { id } = await currentUser(request);
    const { fields, files } = await readForm(request, endpoints.submitWork.form);
    const submission = await submitWork(app.db, {
      workerId: id,
      taskId: request.params.id,
      details: fields.submission_details,
      attachments: files.attachments,
      now: app.clock(),
      autoApproveDays: app.env.AUTO_APPROVE_DAYS,
    });
    return submission;
  });

  route(app, endpoints.listWorkerSubmissions, async (request) => {
    const { status, appeal, ...page } = request.query;
    return listWorkerSubmissions(app.db, (await currentUser(request)).id, page, { status, appeal });
  });

  route(app, endpoints.listBuyerSubmissions, async (request) => {
    const { status, appeal, ...page } = request.query;
    return listBuyerSubmissions(app.db, (await currentUser(request)).id, page, { status, appeal });
  });

  route(app, endpoints.approveSubmission, async (request) =>
    approveSubmission(app.db, {
      reviewer: { buyerId: (await currentUser(request)).id },
      submissionId: request.params.id,
      now: app.clock(),
    }),
  );

  route(app, endpoints.rejectSubmission, async (request) =>
    rejectSubmission(app.db, {
      reviewer: { buyerId: (await currentUser(request)).id },
      submissionId: request.params.id,
      reason: request.body.reason,
      now: app.clock(),
    }),
  );
};
