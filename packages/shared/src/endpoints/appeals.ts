import { z } from "zod";
import { idParamsSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import { optionalIdempotencyHeadersSchema } from "../idempotency.ts";
import { pageOf, pageQuerySchema } from "../paging.ts";
import { appealCaseSchema, submissionSchema } from "../tasks.ts";
import { adminAppealDecisionSchema, appealAnswerSchema, appealRequestSchema } from "../trust.ts";

const idParams = idParamsSchema("Unknown submission");
const closedNote = "409 APPEAL_CLOSED when the appeal is not in a state this step moves on from.";

/** A rejection's appeal: the worker's, the buyer's answer, and the admins' final decision. */
export const appealsEndpoints = {
  appealRejection: defineEndpoint({
    method: "POST",
    path: "/api/submissions/:id/appeal",
    operationId: "appealRejection",
    access: "worker",
    tags: ["worker"],
    summary: "Appeal the rejection of your submission, once, within 7 days",
    description: `The buyer is notified and may overturn (you are paid) or uphold it. ${closedNote}`,
    params: idParams,
    body: appealRequestSchema,
    response: { 200: submissionSchema },
    errors: [409],
  }),
  overturnRejection: defineEndpoint({
    method: "POST",
    path: "/api/submissions/:id/appeal/overturn",
    operationId: "overturnRejection",
    access: "buyer",
    keys: true,
    headers: optionalIdempotencyHeadersSchema,
    tags: ["buyer"],
    summary: "Overturn your rejection: the submission is approved and the worker paid",
    description: `Paid from the task's escrow (taking an open slot) when it has one, else from your wallet: 409 INSUFFICIENT_COINS when it cannot pay. ${closedNote}`,
    params: idParams,
    response: { 200: submissionSchema },
    errors: [409],
  }),
  upholdRejection: defineEndpoint({
    method: "POST",
    path: "/api/submissions/:id/appeal/uphold",
    operationId: "upholdRejection",
    access: "buyer",
    keys: true,
    headers: optionalIdempotencyHeadersSchema,
    tags: ["buyer"],
    summary: "Uphold your rejection with an answer; the worker may then escalate",
    description: closedNote,
    params: idParams,
    body: appealAnswerSchema,
    response: { 200: submissionSchema },
    errors: [409],
  }),
  escalateAppeal: defineEndpoint({
    method: "POST",
    path: "/api/submissions/:id/appeal/escalate",
    operationId: "escalateAppeal",
    access: "worker",
    tags: ["worker"],
    summary: "Take your appeal to the admins: after the buyer upheld it, or 3 days without an answer",
    description: closedNote,
    params: idParams,
    response: { 200: submissionSchema },
    errors: [409],
  }),
  listEscalatedAppeals: defineEndpoint({
    method: "GET",
    path: "/api/admin/appeals",
    operationId: "listEscalatedAppeals",
    access: "admin",
    tags: ["admin"],
    summary:
      "Escalated appeals, the longest waiting first, with the task's instructions and both sides' records",
    query: pageQuerySchema,
    response: { 200: pageOf(appealCaseSchema) },
  }),
  decideAppeal: defineEndpoint({
    method: "POST",
    path: "/api/admin/appeals/:submission_id/decide",
    operationId: "decideAppeal",
    access: "admin",
    tags: ["admin"],
    summary: "Decide an escalated appeal, finally",
    description: `Overturn pays the worker like the buyer's overturn; when the buyer cannot pay, the platform pays (shown in the ledger report as platform_paid, and in the audit trail). Needs a session that passed a second factor (403 TWO_FACTOR_REQUIRED, rule R30). ${closedNote}`,
    params: z.object({ submission_id: z.uuid("Unknown submission") }),
    body: adminAppealDecisionSchema,
    response: { 200: submissionSchema },
    errors: [409],
  }),
};
