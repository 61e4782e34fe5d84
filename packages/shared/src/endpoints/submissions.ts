import { idParamsSchema, rejectionSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import { optionalIdempotencyHeadersSchema } from "../idempotency.ts";
import { pageOf } from "../paging.ts";
import { submissionListQuerySchema, submissionSchema, submitWorkSchema } from "../tasks.ts";

const idParams = idParamsSchema("Unknown id");

/** Submitting work, the worker's and the buyer's submission lists, and the buyer's review. */
export const submissionsEndpoints = {
  submitWork: defineEndpoint({
    method: "POST",
    path: "/api/tasks/:id/submissions",
    operationId: "submitWork",
    access: "worker",
    tags: ["worker"],
    summary: "Submit your work for a task, in your reserved slot or taking a free one",
    description:
      "JSON {submission_details}, or multipart/form-data with submission_details and up to 3 image files named attachments (each at most 5 MB; a task's proof_images says how many it requires). 409 NO_SLOTS_LEFT when no slot is free and you hold none.",
    params: idParams,
    form: { fields: submitWorkSchema, files: { attachments: { required: false, many: 3 } }, json: true },
    response: { 201: submissionSchema },
    errors: [409, 413, 415],
  }),
  listWorkerSubmissions: defineEndpoint({
    method: "GET",
    path: "/api/worker/submissions",
    operationId: "listWorkerSubmissions",
    access: "worker",
    tags: ["worker"],
    summary: "Your submissions, newest first",
    query: submissionListQuerySchema,
    response: { 200: pageOf(submissionSchema) },
  }),
  listBuyerSubmissions: defineEndpoint({
    method: "GET",
    path: "/api/buyer/submissions",
    operationId: "listBuyerSubmissions",
    access: "buyer",
    keys: true,
    tags: ["buyer"],
    summary: "Submissions on your tasks, newest first",
    query: submissionListQuerySchema,
    response: { 200: pageOf(submissionSchema) },
  }),
  approveSubmission: defineEndpoint({
    method: "POST",
    path: "/api/submissions/:id/approve",
    operationId: "approveSubmission",
    access: "buyer",
    keys: true,
    headers: optionalIdempotencyHeadersSchema,
    tags: ["buyer"],
    summary: "Approve a pending submission: the worker is paid",
    params: idParams,
    response: { 200: submissionSchema },
    errors: [409],
  }),
  rejectSubmission: defineEndpoint({
    method: "POST",
    path: "/api/submissions/:id/reject",
    operationId: "rejectSubmission",
    access: "buyer",
    keys: true,
    headers: optionalIdempotencyHeadersSchema,
    tags: ["buyer"],
    summary: "Reject a pending submission with a reason",
    params: idParams,
    body: rejectionSchema,
    response: { 200: submissionSchema },
    errors: [409],
  }),
};
