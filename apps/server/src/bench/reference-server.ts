import http from "node:http";
import { fillPlaceholders } from "drizzle-orm";
import { isoDate, taskSorts, type TaskSort } from "@taskmint/shared";
import type { DbHandle } from "../db/client.ts";
import { publicTasksQuery } from "../modules/tasks/lists.ts";
import { queryRows } from "./query-rows.ts";

/**
 * The benchmark's floor: a bare node:http server that runs the public task list's own SQL
 * (first page, `?sort=`) straight on the driver as a named prepared statement and writes the rows as JSON. No routing,
 * validation, hooks, sessions or mapping: what is left is the database and the wire.
 * Started by bench-server.ts only.
 */
export async function startReferenceServer(
  database: DbHandle,
  port: number,
  host: string,
  clock: () => Date,
): Promise<http.Server> {
  const statements = new Map<string, { name: string; text: string; params: unknown[] }>();
  for (const sort of taskSorts) {
    const query = publicTasksQuery(database.db, sort, false).toSQL();
    // The same named prepared statement treatment as the real route, under a name of its own.
    statements.set(sort, {
      name: `reference_${sort}`,
      text: query.sql,
      params: fillPlaceholders(query.params, { today: isoDate(clock()), limit: 21 }),
    });
  }
  const server = http.createServer((request, response) => {
    const sort = (new URL(request.url ?? "/", "http://x").searchParams.get("sort") ?? "newest") as TaskSort;
    const statement = statements.get(sort);
    if (!statement) {
      response.writeHead(400).end();
      return;
    }
    queryRows(database, statement.text, statement.params, statement.name).then(
      (rows) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(rows)),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}
