import { Readable } from "node:stream";
import { ledgerEndpoints as endpoints, type StatementEntry } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { route } from "../../plugins/endpoint-route.ts";
import { checkLedger } from "./service.ts";
import { statementPage, wholeStatement } from "./statement.ts";

const CSV_COLUMNS = ["date", "kind", "description", "counterparty", "task_id", "amount", "balance_after"];

/** One CSV cell: quoted when needed, and a text a spreadsheet would run as a formula made inert. */
function csvCell(value: string | number | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (entry: StatementEntry) =>
  [
    entry.created_at,
    entry.kind,
    entry.description,
    entry.counterparty_name,
    entry.task_id,
    entry.amount,
    entry.balance_after,
  ]
    .map(csvCell)
    .join(",") + "\r\n";

export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  // It reads every transfer: longer than a request's statement timeout on a large ledger.
  route(app, endpoints.checkLedger, () => checkLedger(app.unhurriedDb));

  route(app, endpoints.getMyStatement, (request) =>
    statementPage(app.db, request.sessionUser.id, request.query),
  );

  route(app, endpoints.downloadMyStatement, async (request, reply) => {
    const pages = wholeStatement(app.db, request.sessionUser.id);
    // The first page is read before the answer starts, so a lost database is still a 503.
    const first = await pages.next();
    async function* lines() {
      yield CSV_COLUMNS.join(",") + "\r\n";
      if (first.done) return;
      yield first.value.map(csvLine).join("");
      for await (const page of pages) yield page.map(csvLine).join("");
    }
    const day = request.now.toISOString().slice(0, 10);
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="taskmint-statement-${day}.csv"`)
      .header("cache-control", "no-store")
      .send(Readable.from(lines()));
  });
};
