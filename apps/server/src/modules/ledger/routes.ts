import { ledgerReportSchema } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole } from "../../plugins/auth-guard.ts";
import { checkLedger } from "./service.ts";

export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/admin/ledger/check",
    {
      preHandler: requireRole("admin"),
      schema: {
        tags: ["admin"],
        summary: "Checks the ledger's invariants (rule M3)",
        response: { 200: ledgerReportSchema },
      },
    },
    () => checkLedger(app.db),
  );
};
