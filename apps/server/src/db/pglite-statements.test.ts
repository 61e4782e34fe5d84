import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withPreparedStatements } from "./pglite-statements.ts";

let raw: PGlite;
let client: PGlite;
beforeAll(async () => {
  raw = new PGlite();
  client = withPreparedStatements(raw);
  await raw.exec("create table notes (id int primary key, body text not null, made timestamptz not null)");
});
afterAll(() => raw.close());

/** The names of the statements PGlite holds prepared now. */
const prepared = async () =>
  (await raw.query<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map(
    (row) => row.name,
  );

describe("PGlite with prepared statements", () => {
  it("answers as PGlite does, and prepares a text once however often it runs", async () => {
    const made = new Date("2026-11-26T10:00:00Z");
    await client.query("insert into notes (id, body, made) values ($1, $2, $3)", [1, "one", made]);
    const before = (await prepared()).length;
    for (let run = 0; run < 3; run += 1) {
      const mine = await client.query("select id, body, made from notes where id = $1", [1]);
      const theirs = await raw.query("select id, body, made from notes where id = $1", [1]);
      expect(mine.rows).toEqual(theirs.rows);
      expect(mine.fields).toEqual(theirs.fields);
      expect(mine.rows).toEqual([{ id: 1, body: "one", made }]);
    }
    expect((await prepared()).length).toBe(before + 1);
    const arrays = await client.query("select id, body from notes where id = $1", [1], { rowMode: "array" });
    expect(arrays.rows).toEqual([[1, "one"]]);
    const updated = await client.query("update notes set body = $1 where id = $2", ["uno", 1]);
    expect(updated.affectedRows).toBe(1);
  });

  it("fails as PGlite does, with the SQLSTATE, and goes on working", async () => {
    const error = await client
      .query("insert into notes (id, body, made) values ($1, $2, now())", [1, "again"])
      .catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe("23505");
    const found = await client.query("select count(*)::int as n from notes where id = $1", [1]);
    expect(found.rows).toEqual([{ n: 1 }]);
  });

  it("runs a transaction's statements in it: a rollback undoes them", async () => {
    await expect(
      client.transaction(async (tx) => {
        await tx.query("insert into notes (id, body, made) values ($1, $2, now())", [2, "two"]);
        expect((await tx.query("select body from notes where id = $1", [2])).rows).toEqual([{ body: "two" }]);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect((await client.query("select body from notes where id = $1", [2])).rows).toEqual([]);
  });

  it("keeps the 200 most recent texts prepared, and prepares an evicted one again", async () => {
    const text = (index: number) => `select $1::int + ${index} as n`;
    for (let index = 0; index < 205; index += 1)
      expect((await client.query(text(index), [1])).rows).toEqual([{ n: 1 + index }]);
    expect((await prepared()).length).toBe(200);
    expect((await client.query(text(0), [1])).rows).toEqual([{ n: 1 }]);
    expect((await prepared()).length).toBe(200);
  });

  it("prepares a statement again when the schema changed under it", async () => {
    const text = "select * from notes where id = $1";
    await client.query(text, [1]);
    await raw.exec("alter table notes add column tag text");
    expect((await client.query(text, [1])).rows).toEqual([expect.objectContaining({ id: 1, tag: null })]);
  });
});
