import type { Database } from "../db/client.ts";

const statementsOf = new WeakMap<Database, Map<string, unknown>>();

/**
 * A named prepared statement for a hot path, built once per database handle: the query is
 * not rebuilt per request, and PostgreSQL parses and plans it once per connection.
 */
export function preparedStatement<Statement>(
  db: Database,
  name: string,
  prepare: () => Statement,
): Statement {
  let statements = statementsOf.get(db);
  if (!statements) {
    statements = new Map();
    statementsOf.set(db, statements);
  }
  let statement = statements.get(name) as Statement | undefined;
  if (!statement) {
    statement = prepare();
    statements.set(name, statement);
  }
  return statement;
}
