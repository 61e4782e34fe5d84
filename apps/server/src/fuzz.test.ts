import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Task } from "@taskmint/shared";
import {
  auditLog,
  ledgerTransfers,
  payments,
  submissions,
  tasks,
  uploads,
  users,
  withdrawals,
} from "./db/schema/index.ts";
import { rowsOf } from "./lib/db-errors.ts";
import { checkLedger } from "./modules/ledger/service.ts";
import { SOAK_SCALE } from "./test/soak.ts";
import { multipart, postTask, registerUser, signInAdmin, testAppPerFile } from "./test/harness.ts";

// Generated input for every route of the OpenAPI document (the auth library's routes
// included), from every kind of caller: random junk, plausible bodies built from each
// route's schema, the same with one field poisoned (NUL, lone surrogates, impossible dates,
// crafted cursors, deep nesting), raw deep or truncated JSON, and broken multipart. The
// server must never answer 5xx, must answer errors in the API's format, and the ledger
// must still balance at the end.

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: "path" | "query" }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** Routes that never end (event streams) cannot answer a single request. */
const LONG_LIVED = new Set(["GET /api/notifications/stream"]);
/** Routes that end the caller's session are asked anonymously, so the other callers keep theirs. */
const SESSION_ENDING = new Set(["POST /api/auth/sign-out"]);

/** Text that looks ordinary but carries what no database can store (issue 14, item 3). */
const unstorable = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.constantFrom("\u0000", "\uD800", "\uDC00", "\uDBFF\u0000", "\u0000\u0000"),
    fc.string({ maxLength: 12 }),
  )
  .map(([before, bad, after]) => `${before}${bad}${after}`);
const impossibleDate = fc.constantFrom(
  "2099-02-30",
  "2099-02-29",
  "2099-04-31",
  "2099-13-01",
  "2099-00-00",
  "0000-00-00",
  "99999-01-01",
  "2099-02-30T00:00:00.000Z",
);
/** Cursors shaped like the server's own, with values the database would choke on. */
const craftedCursor = fc
  .record({
    value: fc.oneof(
      fc.constantFrom(
        2 ** 31,
        -(2 ** 31) - 1,
        99_999_999_999,
        1e308,
        1.5,
        "2099-02-30T00:00:00.000Z",
        "0000-01-01T00:00:00.000Z",
        "Tue",
        "5",
        "a\u0000b",
      ),
      fc.string(),
      fc.double(),
    ),
    id: fc.oneof(fc.uuid(), fc.string(), fc.integer(), fc.constant("a\u0000b")),
  })
  .map((cursor) => Buffer.from(JSON.stringify(cursor)).toString("base64url"));
const deepJson = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "1.5",
    "1e309",
    "NaN",
    "null",
    "true",
    "[]",
    "{}",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "' or 1=1 --",
    "%00",
    "\u0000",
  ),
  fc.integer().map(String),
  fc.uuid(),
  fc.string({ minLength: 5000, maxLength: 20000 }),
  unstorable,
  impossibleDate,
  craftedCursor,
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

/** A value the schema would accept, or close to it: bodies that get past the first checks. */
function plausible(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  if (!schema) return jsonValue;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map(plausible));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      if (schema.format === "email") return fc.constantFrom("fuzz@example.com", "Someone@Example.com");
      if (schema.format === "uuid") return fc.uuid();
      return fc.oneof(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.constantFrom("Secret12", "2099-01-01", "01712345678", "/dashboard"),
      );
    case "integer":
    case "number":
      return fc.integer({
        min: Math.max(schema.minimum ?? 0, -1_000_000),
        max: Math.min(schema.maximum ?? 1000, 1_000_000),
      });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(plausible(schema.items), { minLength: 1, maxLength: 3 });
    case "object": {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, plausible(property)])),
        {
          requiredKeys: Object.keys(properties).filter((name) => required.has(name)),
        },
      );
    }
    default:
      return jsonValue;
  }
}

/** A plausible body with one field replaced by something no database or parser should meet. */
function poisoned(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const poison = fc.oneof(
    unstorable,
    impossibleDate,
    craftedCursor,
    fc.integer({ min: 33, max: 2000 }).map((depth) => JSON.parse(deepJson(depth)) as unknown),
  );
  return plausible(schema).chain((body) => {
    const fields = body && typeof body === "object" && !Array.isArray(body) ? Object.keys(body) : [];
    if (fields.length === 0) return fc.constant(body);
    return fc
      .tuple(fc.constantFrom(...fields), poison)
      .map(([field, value]) => ({ ...(body as object), [field]: value }));
  });
}

const PROFILE_HIJACK = {
  name: "x".repeat(5000),
  image: "https://evil.example/a.png",
  role: "admin",
  emailVerified: true,
};

const IMAGE_PART = {
  bytes: Buffer.from("\x89PNG\r\n\x1a\n not really"),
  filename: "x.png",
  type: "image/png",
};
/** The text fields of the multipart forms (register, post a task, edit the profile). */
const MULTIPART_FIELDS = [
  "name",
  "role",
  "email",
  "password",
  "task_title",
  "task_detail",
  "required_workers",
  "payable_amount",
  "completion_date",
  "submission_info",
];

/** Bodies sent as they are: deep, truncated, or multipart without a boundary or cut short. */
const rawBody = fc.oneof(
  fc.record({
    type: fc.constant("application/json"),
    payload: fc.integer({ min: 33, max: 100_000 }).map(deepJson),
  }),
  fc.record({
    type: fc.constant("application/json"),
    payload: fc.integer({ min: 33, max: 50_000 }).map((depth) => `{"email":${deepJson(depth)}}`),
  }),
  fc.record({
    type: fc.constant("application/json"),
    payload: fc.constantFrom('{"email":', "{", '{"a":1}}', "\u0000", "nul\u0000l"),
  }),
  fc.record({
    type: fc.constantFrom(
      "multipart/form-data",
      "multipart/form-data; boundary=",
      "multipart/form-data; boundary=XX",
    ),
    payload: fc.string(),
  }),
  fc.record({
    type: fc.constant("multipart/form-data; boundary=XX"),
    payload: fc.constantFrom(
      '--XX\r\nContent-Disposition: form-data; name="name"\r\n\r\nhello',
      '--XX\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
      "--XX--",
      "--XX\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XX--",
    ),
  }),
);

type FuzzBody =
  | undefined
  | { json: unknown }
  | { raw: { type: string; payload: string } }
  | { multipart: Parameters<typeof multipart>[0] };

async function encodeBody(
  body: FuzzBody,
): Promise<{ headers: Record<string, string>; payload?: string | Buffer }> {
  if (body === undefined) return { headers: {} };
  if ("json" in body)
    return { headers: { "content-type": "application/json" }, payload: JSON.stringify(body.json) };
  if ("raw" in body) return { headers: { "content-type": body.raw.type }, payload: body.raw.payload };
  const form = await multipart(body.multipart);
  return { headers: form.headers, payload: form.payload };
}

/** Row counts of everything a request could create, and the ledger's movements. */
function footprint() {
  return Promise.all(
    [users, tasks, submissions, withdrawals, payments, uploads, ledgerTransfers, auditLog].map((table) =>
      ctx.db.$count(table),
    ),
  );
}
let operations: { method: string; path: string; operation: OpenApiOperation }[] = [];
const cookies: (string | undefined)[] = [undefined];

const ctx = testAppPerFile();
beforeAll(async () => {
  const worker = await registerUser(ctx.app, "worker");
  const buyer = await registerUser(ctx.app, "buyer");
  await postTask(ctx.app, buyer.cookie).then((response) => response.json<Task>());
  cookies.push(worker.cookie, buyer.cookie, (await signInAdmin(ctx, "fuzz-admin@example.com")).cookie);
  const document = (await ctx.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
    paths: Record<string, Record<string, OpenApiOperation>>;
  }>();
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation }))
      .filter((entry) => !LONG_LIVED.has(`${entry.method} ${entry.path}`)),
  );
});

describe("input fuzzing over the OpenAPI document", () => {
  it("never answers 5xx and always answers errors in the API's format", async () => {
    expect(operations.length).toBeGreaterThan(40);
    let requests = 0;
    for (const { method, path, operation } of operations) {
      const jsonSchema = operation.requestBody?.content?.["application/json"]?.schema;
      const fields = Object.keys(jsonSchema?.properties ?? {});
      const queryNames = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === "query")
        .map((parameter) => parameter.name);
      const anonymousOnly = SESSION_ENDING.has(`${method} ${path}`);
      const multipartBody = fc
        .dictionary(fc.constantFrom(...MULTIPART_FIELDS), fc.oneof(nasty, unstorable, impossibleDate), {
          maxKeys: 6,
        })
        .chain((textFields) =>
          fc.boolean().map((withFile) => ({
            multipart: {
              ...textFields,
              ...(withFile ? { photo: IMAGE_PART, task_image: IMAGE_PART } : {}),
            },
          })),
        );
      const input = fc.record({
        caller: anonymousOnly ? fc.constant(0) : fc.integer({ min: 0, max: cookies.length - 1 }),
        pathValues: fc.array(nasty, { minLength: 4, maxLength: 4 }),
        query: fc.dictionary(
          fc.oneof(fc.constantFrom(...queryNames, "page", "limit", "cursor"), fc.string()),
          nasty,
          { maxKeys: 4 },
        ),
        body: fc.oneof(
          fc.constant(undefined),
          fc
            .dictionary(fc.oneof(fc.constantFrom(...fields, "extra"), fc.string()), jsonValue, { maxKeys: 6 })
            .map((json) => ({ json })),
          jsonValue.map((json) => ({ json })),
          plausible(jsonSchema).map((json) => ({ json })),
          poisoned(jsonSchema).map((json) => ({ json })),
          // Item 4 of issue 14: profile fields smuggled into any route, as the library's update-user took them.
          plausible(jsonSchema).map((json) => ({
            json: { ...(json && typeof json === "object" ? json : {}), ...PROFILE_HIJACK },
          })),
          rawBody.map((raw) => ({ raw })),
          multipartBody,
        ),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ caller, pathValues, query, body }) => {
          let index = 0;
          // A URL is UTF-8 on the wire: a lone surrogate travels as U+FFFD.
          const url = path.replace(/\{[^}]+\}/g, () =>
            encodeURIComponent(Buffer.from(pathValues[index++] ?? "x").toString()),
          );
          const search = new URLSearchParams(query).toString();
          const cookie = cookies[caller];
          const before = method === "GET" ? null : await footprint();
          const sent = await encodeBody(body);
          const response = await ctx.app.inject({
            method: method as "GET",
            url: search ? `${url}?${search}` : url,
            headers: { ...(cookie ? { cookie } : {}), ...sent.headers },
            ...(sent.payload === undefined ? {} : { payload: sent.payload }),
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
    // Whatever got through, no profile broke the profile rules (names up to 80 characters,
    // only images the server stored: rule R18), and no one made themself an admin.
    const [broken] = rowsOf<{ names: number; images: number; admins: number }>(
      await ctx.db.execute(sql`select count(*) filter (where char_length(name) > 80)::int as names,
        count(*) filter (where image is not null and image not like '/uploads/%')::int as images,
        count(*) filter (where role = 'admin')::int as admins from users`),
    );
    expect(broken).toEqual({ names: 0, images: 0, admins: 1 });
  }, 240_000);
});

describe("search box fuzzing (issue 31)", () => {
  /** What people type into a search box, weighted to web-search syntax: minus, quotes, `or`, brackets, spaces. */
  const searchToken = fc.constantFrom(
    "-",
    "-",
    "-",
    " ",
    " ",
    '"',
    "or",
    "OR",
    "(",
    ")",
    "!",
    "&",
    "|",
    "<",
    "<->",
    ":",
    "*",
    "'",
    "\\",
    "\t",
    "\u3000",
    "\u2028",
    "watch",
    "video",
    "the",
    "é",
    "😀",
  );
  /** A search of exactly `length` characters (a code point each, as the limit counts them). */
  const searchOf = (length: number) =>
    fc
      .array(searchToken, { minLength: length, maxLength: length })
      .map((tokens) => [...tokens.join("")].slice(0, length).join(""));
  /** The same pattern repeated to `length` characters: every length up to the limit, with no gaps. */
  const repeated = (pattern: string, length: number) => pattern.repeat(length).slice(0, length);

  let workerCookie = "";
  beforeAll(async () => {
    workerCookie = (await registerUser(ctx.app, "worker")).cookie;
  });

  async function search(q: string) {
    for (const [path, cookie] of [
      ["/api/tasks", undefined],
      ["/api/worker/tasks", workerCookie],
    ] as const) {
      const response = await ctx.app.inject({
        method: "GET",
        url: `${path}?${new URLSearchParams({ q }).toString()}`,
        headers: cookie ? { cookie } : {},
      });
      expect(response.statusCode, `${path}?q=${q} -> ${response.body.slice(0, 300)}`).toBe(200);
      expect(Array.isArray(response.json<{ items: unknown }>().items)).toBe(true);
    }
  }

  it("answers every operator-heavy search of every length up to the limit, on both browsers", async () => {
    for (let length = 1; length <= 200; length++) {
      for (const pattern of ["-", "- ", "-(", '-"', "or -", "watch or video -"]) {
        await search(repeated(pattern, length));
      }
    }
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 200 }).chain(searchOf), search), {
      numRuns: 300 * SOAK_SCALE,
    });
  }, 240_000);
});
