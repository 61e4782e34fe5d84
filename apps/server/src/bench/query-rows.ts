import type { DbHandle } from "../db/client.ts";

/** Runs SQL straight on the driver, rows as arrays: the benchmark's bare floor and its own reads. */
export async function queryRows(
  database: DbHandle,
  text: string,
  params: unknown[],
  preparedName?: string,
): Promise<unknown[][]> {
  const { driver } = database;
  if (driver.kind === "pglite")
    return (await driver.client.query<unknown[]>(text, params, { rowMode: "array" })).rows;
  return (await driver.pool.query<unknown[]>({ name: preparedName, text, values: params, rowMode: "array" }))
    .rows;
}
