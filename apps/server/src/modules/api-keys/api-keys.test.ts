import { createHash } from "node:crypto";
import { connect } from "node:net";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import {
  API_KEY_PATTERN,
  API_KEY_REQUESTS_PER_MINUTE,
  MAX_API_KEYS_PER_BUYER,
  type ApiKey,
  type CreatedApiKey,
  type Task,
} from "@taskmint/shared";
import { apiKeys } from "../../db/schema/index.ts";
import {
  labellingTaskFields,
  marketplaceTestFile,
  multipart,
  registerUser,
  signInAdmin,
  testImage,
  TestClock,
  twoServersPerFile,
  type RegisteredUser,
} from "../../test/harness.ts";

// Issue 35, item 1 (decision 033): a buyer's API keys, and requests made with them.

const { ctx, clock, call, days, submit, coinsOf } = marketplaceTestFile();

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function newKey(buyer: RegisteredUser, name = "My script"): Promise<CreatedApiKey> {
  const response = await call("POST", "/api/buyer/api-keys", buyer.cookie, { name });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiKey>();
}

const keysOf = async (buyer: RegisteredUser) =>
  (await call("GET", "/api/buyer/api-keys", buyer.cookie)).json<ApiKey[]>();

/** A request with the key alone: no cookie, no Origin. */
const withKey = (
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  key: string,
  payload?: object,
  headers: Record<string, string> = {},
) => call(method, url, undefined, payload, { ...bearer(key), ...headers });

/** POST /api/tasks as a program sends it: multipart, the key, no cookie and no Origin. */
async function postTaskWithKey(key: string, fields: Record<string, string> = {}) {
  const body = await multipart({
    ...labellingTaskFields(days(7)),
    ...fields,
    task_image: { bytes: await testImage(), filename: "task.png", type: "image/png" },
  });
  return ctx.app.inject({
    method: "POST",
    url: "/api/tasks",
    payload: body.payload,
    headers: { ...body.headers, ...bearer(key) },
  });
}

function expectError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  const { error } = response.json<{ error: { code: string; message: string } }>();
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(10);
}

describe("creating, listing and revoking keys", () => {
  let buyer: RegisteredUser;
  beforeAll(async () => {
    buyer = await registerUser(ctx.app, "buyer");
  });

  it("shows the key once, stores only its SHA-256, and lists it by name and first characters", async () => {
    const created = await newKey(buyer, "  Nightly import  ");
    expect(Object.keys(created).sort()).toEqual(["created_at", "id", "key", "name"]);
    expect(created.name).toBe("Nightly import");
    expect(created.key).toMatch(API_KEY_PATTERN);
    expect(created.created_at).toBe(clock.now().toISOString());
    const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row!.secretHash).toBe(createHash("sha256").update(created.key).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(11));
    const listed = await keysOf(buyer);
    expect(listed).toEqual([
      {
        id: created.id,
        name: "Nightly import",
        prefix: created.key.slice(0, 11),
        created_at: created.created_at,
        last_used_at: null,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.key);
  });

  it("makes a different key each time", async () => {
    const keys = await Promise.all([newKey(buyer, "a"), newKey(buyer, "b")]);
    expect(keys[0].key).not.toBe(keys[1].key);
    for (const key of keys) await call("DELETE", `/api/buyer/api-keys/${key.id}`, buyer.cookie);
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["101 characters", "x".repeat(101)],
    ["NUL", "a\u0000b"],
    ["not a text", 42],
  ])("refuses a name that is %s and saves nothing", async (_, name) => {
    const before = (await keysOf(buyer)).length;
    expectError(await call("POST", "/api/buyer/api-keys", buyer.cookie, { name }), 400, "VALIDATION");
    expect(await keysOf(buyer)).toHaveLength(before);
  });

  it("refuses fields it does not know (a key's own secret, an owner)", async () => {
    expectError(
      await call("POST", "/api/buyer/api-keys", buyer.cookie, { name: "x", key: "tm_mine" }),
      400,
      "VALIDATION",
    );
  });

  it(`takes ${MAX_API_KEYS_PER_BUYER} live keys and refuses the next with 409 LIMIT_REACHED; a revoked key frees its place`, async () => {
    const owner = await registerUser(ctx.app, "buyer");
    const made: CreatedApiKey[] = [];
    for (let index = 1; index <= MAX_API_KEYS_PER_BUYER; index += 1)
      made.push(await newKey(owner, `key ${index}`));
    expect(await keysOf(owner)).toHaveLength(MAX_API_KEYS_PER_BUYER);
    const refused = await call("POST", "/api/buyer/api-keys", owner.cookie, { name: "one more" });
    expectError(refused, 409, "LIMIT_REACHED");
    expect(await keysOf(owner)).toHaveLength(MAX_API_KEYS_PER_BUYER);
    // Every key still works: the refusal touched none.
    expect((await withKey("GET", "/api/buyer/stats", made[19]!.key)).statusCode).toBe(200);

    expect((await call("DELETE", `/api/buyer/api-keys/${made[0]!.id}`, owner.cookie)).statusCode).toBe(204);
    expect(await keysOf(owner)).toHaveLength(MAX_API_KEYS_PER_BUYER - 1);
    await newKey(owner, "replacement");
    expectError(await call("POST", "/api/buyer/api-keys", owner.cookie, { name: "x" }), 409, "LIMIT_REACHED");
  });

  it("serializes parallel creations: with 19 keys, 5 at once make exactly one more", async () => {
    const owner = await registerUser(ctx.app, "buyer");
    for (let index = 1; index < MAX_API_KEYS_PER_BUYER; index += 1) await newKey(owner, `key ${index}`);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        call("POST", "/api/buyer/api-keys", owner.cookie, { name: `racer ${index}` }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await keysOf(owner)).toHaveLength(MAX_API_KEYS_PER_BUYER);
  });

  it("revokes a key once: again, unknown or another buyer's is 404 and changes nothing", async () => {
    const other = await registerUser(ctx.app, "buyer");
    const key = await newKey(buyer, "to revoke");
    const othersKey = await newKey(other, "not yours");
    expectError(await call("DELETE", `/api/buyer/api-keys/${othersKey.id}`, buyer.cookie), 404, "NOT_FOUND");
    expect((await withKey("GET", "/api/buyer/stats", othersKey.key)).statusCode).toBe(200);
    expect((await call("DELETE", `/api/buyer/api-keys/${key.id}`, buyer.cookie)).statusCode).toBe(204);
    expectError(await call("DELETE", `/api/buyer/api-keys/${key.id}`, buyer.cookie), 404, "NOT_FOUND");
    expectError(
      await call("DELETE", "/api/buyer/api-keys/00000000-0000-4000-8000-000000000000", buyer.cookie),
      404,
      "NOT_FOUND",
    );
    expectError(await call("DELETE", "/api/buyer/api-keys/not-a-uuid", buyer.cookie), 400, "VALIDATION");
    expect((await keysOf(buyer)).map((listed) => listed.id)).not.toContain(key.id);
  });

  it("is for buyers: a worker's session is 403, a visitor's 401", async () => {
    const worker = await registerUser(ctx.app, "worker");
    expectError(await call("POST", "/api/buyer/api-keys", worker.cookie, { name: "x" }), 403, "FORBIDDEN");
    expectError(await call("GET", "/api/buyer/api-keys"), 401, "UNAUTHENTICATED");
  });
});

describe("a key acts as its buyer where its declaration allows", () => {
  let buyer: RegisteredUser;
  let key: CreatedApiKey;
  beforeAll(async () => {
    buyer = await registerUser(ctx.app, "buyer");
    key = await newKey(buyer);
  });

  it("posts a task without a cookie or an Origin, funded from the buyer's coins", async () => {
    const before = await coinsOf(buyer);
    const response = await postTaskWithKey(key.key);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.cookies).toEqual([]);
    const task = response.json<Task>();
    expect(await coinsOf(buyer)).toBe(before - 10);
    const listed = (await withKey("GET", "/api/buyer/tasks", key.key)).json<{ items: Task[] }>();
    expect(listed.items.map((item) => item.id)).toContain(task.id);
  });

  it("takes `bearer` in any case and spaces around the key", async () => {
    const response = await call("GET", "/api/buyer/stats", undefined, undefined, {
      authorization: `  bEaReR   ${key.key}  `,
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it("needs no Origin, and a foreign one does not refuse a key's request (no browser sends a key)", async () => {
    const response = await withKey(
      "PATCH",
      `/api/tasks/${(await postTaskWithKey(key.key)).json<Task>().id}`,
      key.key,
      {
        task_title: "Label 10 photos, carefully",
        task_detail: "Label each photo.",
        submission_info: "The labels",
      },
      { origin: "https://elsewhere.example", "sec-fetch-site": "cross-site" },
    );
    expect(response.statusCode, response.body).toBe(200);
  });

  it("reviews work: approves and rejects the submissions to its buyer's tasks", async () => {
    const task = (await postTaskWithKey(key.key)).json<Task>();
    const [first, second] = [await registerUser(ctx.app, "worker"), await registerUser(ctx.app, "worker")];
    const one = (await submit(first, task.id)).json<{ id: string }>();
    const two = (await submit(second, task.id)).json<{ id: string }>();
    const pending = await withKey("GET", "/api/buyer/submissions?status=pending", key.key);
    expect(pending.json<{ total: number }>().total).toBe(2);
    const coins = await coinsOf(first);
    expect((await withKey("POST", `/api/submissions/${one.id}/approve`, key.key)).statusCode).toBe(200);
    expect(await coinsOf(first)).toBe(coins + 5);
    const rejected = await withKey("POST", `/api/submissions/${two.id}/reject`, key.key, { reason: "Empty" });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const deleted = await withKey("DELETE", `/api/tasks/${task.id}`, key.key);
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  it("cannot see or change another buyer's tasks, submissions or keys", async () => {
    const owner = await registerUser(ctx.app, "buyer");
    const ownersKey = await newKey(owner);
    const task = (await postTaskWithKey(ownersKey.key)).json<Task>();
    const worker = await registerUser(ctx.app, "worker");
    const submission = (await submit(worker, task.id)).json<{ id: string }>();
    const edit = { task_title: "Mine now", task_detail: "x", submission_info: "y" };
    expectError(await withKey("PATCH", `/api/tasks/${task.id}`, key.key, edit), 403, "FORBIDDEN");
    expect((await withKey("DELETE", `/api/tasks/${task.id}`, key.key)).statusCode).toBe(403);
    expect((await withKey("POST", `/api/submissions/${submission.id}/approve`, key.key)).statusCode).toBe(
      403,
    );
    expect(
      (await withKey("POST", `/api/submissions/${submission.id}/reject`, key.key, { reason: "no" }))
        .statusCode,
    ).toBe(403);
    const theirs = (await withKey("GET", "/api/buyer/tasks", key.key)).json<{ items: Task[] }>();
    expect(theirs.items.map((item) => item.id)).not.toContain(task.id);
    const submissions = (await withKey("GET", "/api/buyer/submissions", key.key)).json<{
      items: { id: string }[];
    }>();
    expect(submissions.items.map((item) => item.id)).not.toContain(submission.id);
    // The owner's task is as it was, its submission still pending.
    const ownTasks = (await withKey("GET", "/api/buyer/tasks", ownersKey.key)).json<{ items: Task[] }>();
    expect(ownTasks.items.find((item) => item.id === task.id)).toMatchObject({
      task_title: "Label 10 photos",
    });
    const pending = await withKey("GET", "/api/buyer/submissions?status=pending", ownersKey.key);
    expect(pending.json<{ total: number }>().total).toBe(1);
  });

  it("never manages keys: creating, listing or revoking with a key is 403, whatever cookie comes with it", async () => {
    const admin = await signInAdmin(ctx, "keys-admin@example.com");
    for (const cookie of [undefined, buyer.cookie, admin.cookie]) {
      expectError(
        await call("GET", "/api/buyer/api-keys", cookie, undefined, bearer(key.key)),
        403,
        "FORBIDDEN",
      );
      expectError(
        await call("POST", "/api/buyer/api-keys", cookie, { name: "from a key" }, bearer(key.key)),
        403,
        "FORBIDDEN",
      );
      expectError(
        await call("DELETE", `/api/buyer/api-keys/${key.id}`, cookie, undefined, bearer(key.key)),
        403,
        "FORBIDDEN",
      );
    }
    expect(await keysOf(buyer)).toHaveLength(1);
  });

  it("never reaches the account, and a cookie sent with a key lends it nothing", async () => {
    const admin = await signInAdmin(ctx, "keys-admin@example.com");
    for (const [method, url] of [
      ["GET", "/api/me"],
      ["GET", "/api/me/sessions"],
      ["GET", "/api/me/statement"],
      ["POST", "/api/auth/sign-out"],
      ["POST", "/api/auth/change-password"],
      ["POST", "/api/auth/two-factor/disable"],
      ["GET", "/api/admin/users"],
      ["GET", "/api/payments"],
      ["GET", "/api/notifications"],
    ] as const) {
      for (const cookie of [undefined, buyer.cookie, admin.cookie]) {
        const response = await call(method, url, cookie, method === "POST" ? {} : undefined, bearer(key.key));
        expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      }
    }
    // On a key's route the key decides: the admin's cookie does not make the buyer's key an admin's.
    const asAdminToo = await call("GET", "/api/buyer/tasks", admin.cookie, undefined, bearer(key.key));
    expect(asAdminToo.statusCode).toBe(200);
    // The cookies still work without the key.
    expect((await call("GET", "/api/me", buyer.cookie)).statusCode).toBe(200);
  });

  it("is refused by public routes too: a program calls them without its key", async () => {
    for (const url of ["/api/tasks", "/api/config", "/healthz", "/api/no-such-route"]) {
      expectError(await call("GET", url, undefined, undefined, bearer(key.key)), 403, "FORBIDDEN");
    }
  });
});

describe("a key stops working at once", () => {
  it("after its revocation, on the very next request (a cookie sent along does not help)", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const key = await newKey(buyer);
    expect((await withKey("GET", "/api/buyer/stats", key.key)).statusCode).toBe(200);
    expect((await call("DELETE", `/api/buyer/api-keys/${key.id}`, buyer.cookie)).statusCode).toBe(204);
    expectError(await withKey("GET", "/api/buyer/stats", key.key), 401, "UNAUTHENTICATED");
    expectError(await postTaskWithKey(key.key), 401, "UNAUTHENTICATED");
    expectError(
      await call("GET", "/api/buyer/stats", buyer.cookie, undefined, bearer(key.key)),
      401,
      "UNAUTHENTICATED",
    );
  });

  it("when its buyer becomes a worker or an admin, or is deleted", async () => {
    const admin = await signInAdmin(ctx, "keys-admin@example.com");
    for (const change of ["worker", "admin", "deleted"] as const) {
      const buyer = await registerUser(ctx.app, "buyer");
      const key = await newKey(buyer);
      expect((await withKey("GET", "/api/buyer/stats", key.key)).statusCode).toBe(200);
      const response =
        change === "deleted"
          ? await call("DELETE", `/api/admin/users/${buyer.user.id}`, admin.cookie, { coins: "forfeit" })
          : await call("PATCH", `/api/admin/users/${buyer.user.id}`, admin.cookie, { role: change });
      expect(response.statusCode, response.body).toBe(200);
      expectError(await withKey("GET", "/api/buyer/stats", key.key), 401, "UNAUTHENTICATED");
      // An admin's power never comes through a key, on an admin's route or a shared one.
      expect((await withKey("GET", "/api/admin/users", key.key)).statusCode).toBe(403);
      expectError(await postTaskWithKey(key.key), 401, "UNAUTHENTICATED");
    }
  });
});

describe("last use", () => {
  it("is written on the first use, then at most once a minute", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const key = await newKey(buyer);
    const lastUsed = async () => (await keysOf(buyer))[0]!.last_used_at;
    expect(await lastUsed()).toBeNull();
    const first = clock.now().toISOString();
    await withKey("GET", "/api/buyer/stats", key.key);
    expect(await lastUsed()).toBe(first);
    clock.advanceMs(59_999);
    await withKey("GET", "/api/buyer/stats", key.key);
    expect(await lastUsed()).toBe(first);
    clock.advanceMs(1);
    const minuteLater = clock.now().toISOString();
    await withKey("GET", "/api/buyer/stats", key.key);
    expect(await lastUsed()).toBe(minuteLater);
    // A refused request (a route keys may not call) is no use.
    clock.advanceMs(120_000);
    await withKey("GET", "/api/me", key.key);
    expect(await lastUsed()).toBe(minuteLater);
  });
});

describe("bad credentials get a clear 4xx, never a 5xx", () => {
  let key: CreatedApiKey;
  beforeAll(async () => {
    key = await newKey(await registerUser(ctx.app, "buyer"));
  });

  const malformed = [
    ["Bearer alone", "Bearer"],
    ["Bearer and spaces", "Bearer    "],
    ["a short key", "Bearer tm_abc"],
    ["a key one character short", () => `Bearer ${key.key.slice(0, -1)}`],
    ["a key one character long", () => `Bearer ${key.key}A`],
    ["a character outside base64url", () => `Bearer ${key.key.slice(0, -1)}+`],
    ["another prefix", () => `Bearer sk_${key.key.slice(3)}`],
    ["two keys", () => `Bearer ${key.key} ${key.key}`],
    ["a bare key without the scheme", () => `${key.key}x`],
    ["10 KB", () => `Bearer tm_${"a".repeat(10 * 1024)}`],
    ["latin-1 bytes", "Bearer tm_\u00e9\u00e9\u00e9"],
  ] as const;

  it.each(malformed)("%s: 401 on a key's route, 403 elsewhere", async (_, value) => {
    const authorization = typeof value === "function" ? value() : value;
    const onKeyRoute = await call("GET", "/api/buyer/stats", undefined, undefined, { authorization });
    expectError(onKeyRoute, 401, "UNAUTHENTICATED");
    expect(onKeyRoute.json<{ error: { message: string } }>().error.message).toMatch(/API key/);
    expectError(await call("GET", "/api/me", undefined, undefined, { authorization }), 403, "FORBIDDEN");
    const post = await postTaskWithKey("x");
    expectError(post, 401, "UNAUTHENTICATED");
  });

  it("a well-formed key that was never issued: 401", async () => {
    const unknown = `tm_${"A".repeat(43)}`;
    expectError(await withKey("GET", "/api/buyer/stats", unknown), 401, "UNAUTHENTICATED");
  });

  it("a key with NUL bytes (which Node's HTTP parser refuses with 400 before the app): 401, 403 elsewhere", async () => {
    for (const authorization of [`Bearer ${key.key}\u0000`, `Bearer \u0000${key.key}`, "Bearer \u0000"]) {
      expectError(
        await call("GET", "/api/buyer/stats", undefined, undefined, { authorization }),
        401,
        "UNAUTHENTICATED",
      );
      expectError(await call("GET", "/api/me", undefined, undefined, { authorization }), 403, "FORBIDDEN");
    }
  });

  it("over a real connection: NUL is 400 from the HTTP parser, 10 KB is the app's 401, 20 KB is 431; never a 5xx", async () => {
    const address = new URL(await ctx.app.listen({ host: "127.0.0.1", port: 0 }));
    const raw = (authorization: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(address.port), address.hostname);
        let answer = "";
        socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
        socket.on("end", () => resolve(answer));
        socket.on("error", reject);
        // Written without closing our side: the server closes the connection after its answer.
        socket.write(
          `GET /api/buyer/stats HTTP/1.1\r\nHost: ${address.host}\r\nAuthorization: ${authorization}\r\nConnection: close\r\n\r\n`,
        );
      });
    const statusOf = (answer: string) => Number(answer.slice(9, 12));
    expect(statusOf(await raw(`Bearer ${key.key.slice(0, 20)}\u0000${key.key.slice(20)}`))).toBe(400);
    const tenKb = await raw(`Bearer tm_${"a".repeat(10 * 1024)}`);
    expect(statusOf(tenKb)).toBe(401);
    expect(tenKb).toContain('"code":"UNAUTHENTICATED"');
    expect(statusOf(await raw(`Bearer tm_${"a".repeat(20 * 1024)}`))).toBe(431);
    // The server still answers a good key afterwards.
    expect(statusOf(await raw(`Bearer ${key.key}`))).toBe(200);
  });

  it("another scheme (Basic) is not a key: the request is a visitor's, or its cookie's", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const basic = { authorization: "Basic dXNlcjpwYXNz" };
    expectError(await call("GET", "/api/buyer/stats", undefined, undefined, basic), 401, "UNAUTHENTICATED");
    expect((await call("GET", "/api/buyer/stats", buyer.cookie, undefined, basic)).statusCode).toBe(200);
  });
});

describe(`${API_KEY_REQUESTS_PER_MINUTE} requests a minute per key`, () => {
  it("lets the last one in and refuses the next with 429 and Retry-After; other keys and the session go on", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const [busy, calm] = [await newKey(buyer, "busy"), await newKey(buyer, "calm")];
    const statuses: number[] = [];
    for (let sent = 0; sent < API_KEY_REQUESTS_PER_MINUTE; sent += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, API_KEY_REQUESTS_PER_MINUTE - sent) }, () =>
          withKey("GET", "/api/buyer/api-keys-are-not-here", busy.key),
        ),
      );
      statuses.push(...batch.map((response) => response.statusCode));
    }
    // Refused routes are not counted: these 403s leave the whole minute to real requests.
    expect(new Set(statuses)).toEqual(new Set([403]));
    for (let sent = 0; sent < API_KEY_REQUESTS_PER_MINUTE; sent += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, API_KEY_REQUESTS_PER_MINUTE - sent) }, () =>
          withKey("GET", "/api/buyer/stats", busy.key),
        ),
      );
      expect(batch.map((response) => response.statusCode).filter((status) => status !== 200)).toEqual([]);
    }
    const over = await withKey("GET", "/api/buyer/stats", busy.key);
    expectError(over, 429, "RATE_LIMITED");
    expect(Number(over.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers["retry-after"])).toBeLessThanOrEqual(60);
    expectError(await postTaskWithKey(busy.key), 429, "RATE_LIMITED");
    expect((await withKey("GET", "/api/buyer/stats", calm.key)).statusCode).toBe(200);
    expect((await call("GET", "/api/buyer/stats", buyer.cookie)).statusCode).toBe(200);
  });
});

describe("two servers on one database", () => {
  const clock = new TestClock();
  const servers = twoServersPerFile(clock);

  it("a key revoked on one is refused by the other on its next request; its last use is written once a minute", async () => {
    const buyer = await registerUser(servers.one.app, "buyer");
    const made = await servers.one.app.inject({
      method: "POST",
      url: "/api/buyer/api-keys",
      headers: { cookie: buyer.cookie },
      payload: { name: "Shared" },
    });
    const key = made.json<CreatedApiKey>();
    const stats = (server: "one" | "two") =>
      servers[server].app.inject({ method: "GET", url: "/api/buyer/stats", headers: bearer(key.key) });
    expect((await stats("two")).statusCode).toBe(200);
    const firstUse = clock.now();
    clock.advanceMs(30_000);
    expect((await stats("one")).statusCode).toBe(200);
    const [row] = await servers.one.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.lastUsedAt).toEqual(firstUse);
    const revoked = await servers.one.app.inject({
      method: "DELETE",
      url: `/api/buyer/api-keys/${key.id}`,
      headers: { cookie: buyer.cookie },
    });
    expect(revoked.statusCode).toBe(204);
    expectError(await stats("two"), 401, "UNAUTHENTICATED");
    expectError(await stats("one"), 401, "UNAUTHENTICATED");
  });
});
