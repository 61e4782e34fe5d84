import { z } from "zod";
import {
  adminAppealDecisionSchema,
  appealAnswerSchema,
  appealRequestSchema,
  idParamsSchema,
  pageOf,
  pageQuerySchema,
  submissionSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireAdminWithTwoFactor, requireRole } from "../../plugins/auth-guard.ts";
import {
  appealRejection,
  escalateAppeal,
  listEscalatedAppeals,
  overturnAppeal,
  upholdByAdmin,
  upholdByBuyer,
} from "./service.ts";

const idParams = idParamsSchema("Unknown submission");
const submissionParams = z.object({ submission_id: z.uuid("Unknown submission") });
const closedNote = "409 APPEAL_CLOSED when the appeal is not in a state this step moves on from.";

export const appealRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/submissions/:id/appeal",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Appeal the rejection of your submission, once, within 7 days",
        description: `The buyer is notified and may overturn (you are paid) or uphold it. ${closedNote}`,
        params: idParams,
        body: appealRequestSchema,
        response: { 200: submissionSchema },
      },
    },
    async (request) =>
      appealRejection(app.db, {
        workerId: (await currentUser(request)).id,
        submissionId: request.params.id,
        message: request.body.message,
        now: app.clock(),
      }),
  );

  app.post(
    "/api/submissions/:id/appeal/overturn",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Overturn your rejection: the submission is approved and the worker paid",
        description: `Paid from the task's escrow (taking an open slot) when it has one, else from your wallet: 409 INSUFFICIENT_COINS when it cannot pay. ${closedNote}`,
        params: idParams,
        response: { 200: submissionSchema },
      },
    },
    async (request) =>
      overturnAppeal(app.db, {
        decider: { buyerId: (await currentUser(request)).id },
        submissionId: request.params.id,
        now: app.clock(),
      }),
  );

  app.post(
    "/api/submissions/:id/appeal/uphold",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Uphold your rejection with an answer; the worker may then escalate",
        description: closedNote,
        params: idParams,
        body: appealAnswerSchema,
        response: { 200: submissionSchema },
      },
    },
    async (request) =>
      upholdByBuyer(app.db, {
        buyerId: (await currentUser(request)).id,
        submissionId: request.params.id,
        answer: request.body.answer,
        now: app.clock(),
      }),
  );

  app.post(
    "/api/submissions/:id/appeal/escalate",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Take your appeal to the admins: after the buyer upheld it, or 3 days without an answer",
        description: closedNote,
        params: idParams,
        response: { 200: submissionSchema },
      },
    },
    async (request) =>
      escalateAppeal(app.db, {
        workerId: (await currentUser(request)).id,
        submissionId: request.params.id,
        now: app.clock(),
      }),
  );

  app.get(
    "/api/admin/appeals",
    {
      preHandler: requireRole("admin"),
      schema: {
        tags: ["admin"],
        summary: "Escalated appeals, the longest waiting first",
        querystring: pageQuerySchema,
        response: { 200: pageOf(submissionSchema) },
      },
    },
    async (request) => listEscalatedAppeals(app.db, request.query),
  );

  app.post(
    "/api/admin/appeals/:submission_id/decide",
    {
      preHandler: requireAdminWithTwoFactor,
      schema: {
        tags: ["admin"],
        summary: "Decide an escalated appeal, finally",
        description: `Overturn pays the worker like the buyer's overturn; when the buyer cannot pay, the platform pays (shown in the ledger report as platform_paid, and in the audit trail). Needs a session that passed a second factor (403 TWO_FACTOR_REQUIRED, rule R30). ${closedNote}`,
        params: submissionParams,
        body: adminAppealDecisionSchema,
        response: { 200: submissionSchema },
      },
    },
    async (request) => {
      const adminId = (await currentUser(request)).id;
      const { decision, answer } = request.body;
      const submissionId = request.params.submission_id;
      return decision === "overturn"
        ? overturnAppeal(app.db, { decider: { adminId }, submissionId, answer, now: app.clock() })
        : upholdByAdmin(app.db, { adminId, submissionId, answer, now: app.clock() });
    },
  );
};
