import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
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
        response: {
          200: z.object({
            ok: z.boolean(),
            issued: z.number(),
            wallets: z.number(),
            escrow: z.number(),
            held: z.number(),
            paid_out: z.number(),
            problems: z.array(z.string()),
          }),
        },
      },
    },
    () => checkLedger(app.db),
  );
};
