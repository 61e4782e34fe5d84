import pg from "pg";

/**
 * On PostgreSQL each test worker gets a database of its own (`<db>_worker_<n>`, made on first
 * use), so the server suite's files run in parallel there as they do on PGlite, where each file
 * has its own in-memory database. Runs before every test file (a setup file of the project).
 */
const base = (process.env.TASKMINT_TEST_BASE_DATABASE_URL ??= process.env.DATABASE_URL ?? "");
const worker = process.env.VITEST_POOL_ID;
if (base && worker) {
  const url = new URL(base);
  const name = `${decodeURIComponent(url.pathname.slice(1)) || "postgres"}_worker_${worker}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  url.pathname = `/${encodeURIComponent(name)}`;
  process.env.DATABASE_URL = url.href;
}
