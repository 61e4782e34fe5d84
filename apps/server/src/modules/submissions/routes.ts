import { submissionsEndpoints as endpoints, submitWorkSchema } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { readMultipart } from "../../lib/multipart.ts";
import { currentUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import { fieldMessages } from "../../plugins/errors.ts";
import { listBuyerSubmissions, listWorkerSubmissions } from "./lists.ts";
import { approveSubmission, rejectSubmission } from "./review.ts";
import { submitWork } from "./service.ts";

export const submissionRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.submitWork, async (request, reply) => {
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
