import { ledgerReportSchema } from "../admin.ts";
import { defineEndpoint } from "../endpoint.ts";
import { statementPageSchema, statementQuerySchema } from "../money.ts";

/** The ledger's check, and a user's coin statement. */
export const ledgerEndpoints = {
  checkLedger: defineEndpoint({
    method: "GET",
    path: "/api/admin/ledger/check",
    operationId: "checkLedger",
    access: "admin",
    tags: ["admin"],
    summary: "Checks the ledger's invariants (rule M3)",
    response: { 200: ledgerReportSchema },
  }),
  getMyStatement: defineEndpoint({
    method: "GET",
    path: "/api/me/statement",
    operationId: "getMyStatement",
    access: "user",
    tags: ["account"],
    summary: "Your coin statement: every movement of your balance, newest first, with the balance after it",
    query: statementQuerySchema,
    response: { 200: statementPageSchema },
  }),
  /** A CSV file, not JSON: no answer schema; the web links to it with urlOf(). */
  downloadMyStatement: defineEndpoint({
    method: "GET",
    path: "/api/me/statement.csv",
    operationId: "downloadMyStatement",
    access: "user",
    tags: ["account"],
    summary: "Your whole coin statement as a CSV file (text/csv), newest first",
  }),
};
