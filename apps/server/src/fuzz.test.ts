import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Task } from "@taskmint/shared";
import { auditLog, ledgerTransfers, payments, submissions, tasks, uploads, users, withdrawals } from "./db/schema/index.ts";
import { checkLedger } from "./modules/ledger/service.ts";
import { ensureAdmin } from "./modules/users/service.ts";
import { SOAK_SCALE } from "./test/soak.ts";
import { postTask, registerUser, sessionCookie, signIn, startTestApp, type TestContext } from "./test/harness.ts";

// Generated input for every route of the OpenAPI document, from every kind of caller:
// the server must never answer 5xx, must answer errors in the API's format, and the
// ledger must still balance at the end.

interface OpenApiOperation {
  parameters?: { name: string; in: "path" | "query" }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

/** Routes that never end (event streams) cannot answer a single request. */
const LONG_LIVED = new Set(["GET /api/notifications/stream"]);

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constantFrom("", " ", "0", "-1", "1.5", "1e309", "NaN", "null", "true", "[]", "{}", "../../etc/passwd", "<script>alert(1)</script>", "' or 1=1 --", "%00", "\u0000"),
  fc.integer().map(String),
  fc.uuid(),
  fc.string({ minLength: 5000, maxLength: 20000 }),
);
const jsonValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1.5, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e308),
  nasty,
  fc.array(fc.string(), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

let ctx: TestContext;

/** Row counts of everything a request could create, and the ledger's movements. */
function footprint() {
  return Promise.all([users, tasks, submissions, withdrawals, payments, uploads, ledgerTransfers, auditLog].map((table) => ctx.db.$count(table)));
}
let operations: { method: string; path: string; operation: OpenApiOperation }[] = [];
const cookies: (string | undefined)[] = [undefined];

beforeAll(async () => {
  ctx = await startTestApp();
  const worker = await registerUser(ctx.app, "worker");
  const buyer = await registerUser(ctx.app, "buyer");
  await postTask(ctx.app, buyer.cookie).then((response) => response.json<Task>());
  await ensureAdmin(ctx.db, { email: "fuzz-admin@example.com", password: "Admin123" });
  cookies.push(worker.cookie, buyer.cookie, sessionCookie(await signIn(ctx.app, "fuzz-admin@example.com", "Admin123")));
  const document = (await ctx.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{ paths: Record<string, Record<string, OpenApiOperation>> }>();
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation }))
      .filter((entry) => !LONG_LIVED.has(`${entry.method} ${entry.path}`)),
  );
});
afterAll(() => ctx.close());

describe("input fuzzing over the OpenAPI document", () => {
  it("never answers 5xx and always answers errors in the API's format", async () => {
    expect(operations.length).toBeGreaterThan(40);
    let requests = 0;
    for (const { method, path, operation } of operations) {
      const fields = Object.keys(operation.requestBody?.content?.["application/json"]?.schema?.properties ?? {});
      const queryNames = (operation.parameters ?? []).filter((parameter) => parameter.in === "query").map((parameter) => parameter.name);
      const input = fc.record({
        caller: fc.integer({ min: 0, max: cookies.length - 1 }),
        pathValues: fc.array(nasty, { minLength: 4, maxLength: 4 }),
        query: fc.dictionary(fc.oneof(fc.constantFrom(...queryNames, "page", "limit", "cursor"), fc.string()), nasty, { maxKeys: 4 }),
        body: fc.oneof(
          fc.constant(undefined),
          fc.dictionary(fc.oneof(fc.constantFrom(...fields, "extra"), fc.string()), jsonValue, { maxKeys: 6 }),
          jsonValue,
        ),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ caller, pathValues, query, body }) => {
          let index = 0;
          const url = path.replace(/\{[^}]+\}/g, () => encodeURIComponent(pathValues[index++] ?? "x"));
          const search = new URLSearchParams(query).toString();
          const cookie = cookies[caller];
          const before = method === "GET" ? null : await footprint();
          const response = await ctx.app.inject({
            method: method as "GET",
            url: search ? `${url}?${search}` : url,
            headers: { ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
            ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
          });
          requests += 1;
          expect(response.statusCode, `${method} ${url} -> ${response.body.slice(0, 300)}`).toBeLessThan(500);
          if (response.statusCode >= 400) {
            const { error } = response.json<{ error?: { code?: unknown; message?: unknown } }>();
            expect([typeof error?.code, typeof error?.message]).toEqual(["string", "string"]);
            // A refused request changes nothing.
            if (before) expect(await footprint(), `${method} ${url} changed data`).toEqual(before);
          }
        }),
        { numRuns: 60 * SOAK_SCALE },
      );
    }
    expect(requests).toBeGreaterThan(1000);
    expect((await checkLedger(ctx.db)).problems).toEqual([]);
  }, 240_000);
});
