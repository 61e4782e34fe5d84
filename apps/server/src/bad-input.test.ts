import { beforeAll, describe, expect, it } from "vitest";
import type { Task } from "@taskmint/shared";
import { encodeCursor } from "./lib/keyset.ts";
import {
  multipart,
  postTask,
  registerUser,
  signInAdmin,
  testAppPerFile,
  testImage,
  type RegisteredUser,
} from "./test/harness.ts";

// Item 3 of issue 14: input that PostgreSQL or a parser would choke on gets the API's 400
// (or 413/415) from the application's own checks, never a 5xx, and changes nothing.

let worker: RegisteredUser;
let buyer: RegisteredUser;
let admin: string;
let task: Task;

const ctx = testAppPerFile();
beforeAll(async () => {
  worker = await registerUser(ctx.app, "worker");
  buyer = await registerUser(ctx.app, "buyer");
  task = (await postTask(ctx.app, buyer.cookie)).json<Task>();
  admin = (await signInAdmin(ctx, "bad-input-admin@example.com")).cookie;
});

function expectRefused(response: { statusCode: number; body: string }, status = 400) {
  expect(response.statusCode, response.body).toBe(status);
  const { error } = JSON.parse(response.body) as { error: { code: string; message: string } };
  expect(typeof error.code).toBe("string");
  expect(typeof error.message).toBe("string");
}

const UNSTORABLE = ["a\u0000b", "\u0000", "broken \uD800 half", "tail \uDC00"];

describe("text no database could store", () => {
  it.each(UNSTORABLE)("refuses %j in every JSON text field", async (text) => {
    const json = (method: "POST" | "PATCH", url: string, cookie: string | undefined, payload: object) =>
      ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, payload });
    expectRefused(
      await json("PATCH", `/api/tasks/${task.id}`, buyer.cookie, {
        task_title: text,
        task_detail: "Fine",
        submission_info: "Fine",
      }),
    );
    expectRefused(
      await json("PATCH", `/api/tasks/${task.id}`, buyer.cookie, {
        task_title: "Fine",
        task_detail: text,
        submission_info: "Fine",
      }),
    );
    expectRefused(
      await json("PATCH", `/api/tasks/${task.id}`, buyer.cookie, {
        task_title: "Fine",
        task_detail: "Fine",
        submission_info: text,
      }),
    );
    expectRefused(
      await json("POST", `/api/tasks/${task.id}/submissions`, worker.cookie, { submission_details: text }),
    );
    expectRefused(
      await json("POST", "/api/withdrawals", worker.cookie, {
        withdrawal_coin: 200,
        payment_system: "PayPal",
        account_number: text,
      }),
    );
    expectRefused(
      await json("POST", "/api/auth/sign-in/email", undefined, { email: text, password: "Secret12" }),
    );
    expectRefused(
      await json("POST", "/api/auth/sign-in/email", undefined, {
        email: worker.email,
        password: `Secret12${text}`,
      }),
    );
    expectRefused(await json("POST", "/api/auth/request-password-reset", undefined, { email: text }));
    expectRefused(
      await json("POST", "/api/auth/change-password", worker.cookie, {
        currentPassword: worker.password,
        newPassword: `Secret12${text}`,
      }),
    );
    expectRefused(
      await json("POST", "/api/password/reset", undefined, { token: "abc", password: `Secret12${text}` }),
    );
    expect(
      (
        await ctx.app.inject({
          method: "GET",
          url: `/api/tasks/${task.id}`,
          headers: { cookie: buyer.cookie },
        })
      ).json<Task>(),
    ).toEqual({ ...task, my_submission: null, my_reservation: null }); // unchanged (a signed-in reader also gets my_submission)
  });

  // A URL or a multipart body is UTF-8 on the wire: a lone surrogate cannot be sent there, NUL can.
  const NUL_TEXTS = UNSTORABLE.filter((text) => text.includes("\u0000"));

  it.each(NUL_TEXTS)("refuses %j in every query text", async (text) => {
    expectRefused(
      await ctx.app.inject({
        method: "GET",
        url: `/api/admin/users?q=${encodeURIComponent(text)}`,
        headers: { cookie: admin },
      }),
    );
    expectRefused(
      await ctx.app.inject({
        method: "GET",
        url: `/api/auth/callback/google?state=${encodeURIComponent(text)}&code=x`,
      }),
    );
    expectRefused(
      await ctx.app.inject({
        method: "GET",
        url: `/api/auth/reset-password/abc?callbackURL=${encodeURIComponent(`/reset-password${text}`)}`,
      }),
    );
  });

  it.each(NUL_TEXTS)("refuses %j in every multipart text field", async (text) => {
    const photo = { bytes: await testImage(), filename: "a.png", type: "image/png" };
    const register = await multipart({
      name: `Ann ${text}`,
      role: "worker",
      email: "nul@example.com",
      password: "Secret12",
      photo,
    });
    expectRefused(await ctx.app.inject({ method: "POST", url: "/api/register", ...register }));
    const rename = await multipart({ name: text });
    expectRefused(
      await ctx.app.inject({
        method: "PATCH",
        url: "/api/me",
        payload: rename.payload,
        headers: { ...rename.headers, cookie: worker.cookie },
      }),
    );
    for (const field of ["task_title", "task_detail", "submission_info"])
      expectRefused(await postTask(ctx.app, buyer.cookie, { [field]: text }));
  });

  it("counts limits in characters: 80 emoji make a valid name, 81 do not", async () => {
    const rename = async (name: string) => {
      const body = await multipart({ name });
      return ctx.app.inject({
        method: "PATCH",
        url: "/api/me",
        payload: body.payload,
        headers: { ...body.headers, cookie: worker.cookie },
      });
    };
    expect((await rename("😀".repeat(80))).statusCode).toBe(200);
    expectRefused(await rename("😀".repeat(81)));
  });
});

describe("dates and cursors", () => {
  it.each(["2099-02-30", "2099-02-29", "2099-04-31", "2099-13-01", "2099-00-10", "0000-01-01"])(
    "refuses the completion date %s",
    async (date) => {
      expectRefused(await postTask(ctx.app, buyer.cookie, { completion_date: date }));
    },
  );

  const ID = "00000000-0000-4000-8000-000000000000";
  // Refused by every keyset list, whatever its key.
  const junk = [
    Buffer.from(JSON.stringify({ value: 5, id: 123 })).toString("base64url"),
    encodeCursor({ value: 5, id: "a\u0000b" }),
    encodeCursor({ value: 5, id: "x".repeat(65) }),
    encodeCursor({ value: "a\u0000b", id: ID }),
    Buffer.from("[1e400]").toString("base64url"),
    Buffer.from("null").toString("base64url"),
    Buffer.from('{"value":{"nested":1},"id":"x"}').toString("base64url"),
    "!!junk!!",
    "x".repeat(400),
  ];
  // Refused where the key is a number or a time (the admin's user list pages by name, where any text is a name).
  const wrongType = [
    encodeCursor({ value: 99_999_999_999, id: ID }),
    encodeCursor({ value: -99_999_999_999, id: ID }),
    encodeCursor({ value: 1.5, id: ID }),
    encodeCursor({ value: "2099-02-30T00:00:00.000Z", id: ID }),
    encodeCursor({ value: "0000-01-01T00:00:00.000Z", id: ID }),
    encodeCursor({ value: "Tue", id: ID }),
    encodeCursor({ value: "5", id: ID }),
  ];
  const numberOrTimeLists = (q: string) => [
    ...["newest", "price_asc", "price_desc"].map((sort) => ({
      url: `/api/tasks?sort=${sort}&${q}`,
      cookie: undefined,
    })),
    { url: `/api/worker/tasks?${q}`, cookie: worker.cookie },
    { url: `/api/admin/tasks?${q}`, cookie: admin },
  ];
  it.each(junk)("refuses the cursor %s on every keyset list", async (cursor) => {
    const q = `cursor=${encodeURIComponent(cursor)}`;
    for (const { url, cookie } of [
      ...numberOrTimeLists(q),
      { url: `/api/admin/users?${q}`, cookie: admin },
    ]) {
      expectRefused(await ctx.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} }));
    }
  });
  it.each(wrongType)("refuses the cursor %s on every list keyed by a number or a time", async (cursor) => {
    for (const { url, cookie } of numberOrTimeLists(`cursor=${encodeURIComponent(cursor)}`)) {
      expectRefused(await ctx.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} }));
    }
  });

  it.each(["page=1e400", "page=99999999999999999999", "limit=abc", "page=-1", "limit=1.5"])(
    "refuses the paging query %s",
    async (query) => {
      expectRefused(
        await ctx.app.inject({
          method: "GET",
          url: `/api/worker/submissions?${query}`,
          headers: { cookie: worker.cookie },
        }),
      );
      expectRefused(
        await ctx.app.inject({ method: "GET", url: `/api/admin/users?${query}`, headers: { cookie: admin } }),
      );
    },
  );
});

describe("bodies that are not what they claim", () => {
  const garbage: [string, string, string | Buffer][] = [
    ["no boundary", "multipart/form-data", "garbage"],
    ["unknown boundary", "multipart/form-data; boundary=XX", "no parts at all"],
    [
      "truncated part",
      "multipart/form-data; boundary=XX",
      '--XX\r\nContent-Disposition: form-data; name="name"\r\n\r\nhello',
    ],
    [
      "truncated file",
      "multipart/form-data; boundary=XX",
      '--XX\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    ],
    [
      "binary noise",
      "multipart/form-data; boundary=XX",
      Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256)),
    ],
  ];
  it.each(garbage)(
    "refuses a multipart body with %s on every multipart route",
    async (_label, type, payload) => {
      const routes = [
        { method: "POST", url: "/api/register", cookie: {} },
        { method: "PATCH", url: "/api/me", cookie: { cookie: worker.cookie } },
        { method: "POST", url: "/api/tasks", cookie: { cookie: buyer.cookie } },
      ] as const;
      for (const { method, url, cookie } of routes) {
        expectRefused(
          await ctx.app.inject({ method, url, headers: { "content-type": type, ...cookie }, payload }),
        );
      }
    },
  );

  const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
  it.each([
    ["/api/auth/sign-in/email", undefined],
    ["/api/auth/request-password-reset", undefined],
    ["/api/auth/sign-out", "worker"],
    ["/api/auth/change-password", "worker"],
    ["/api/password/reset", undefined],
    ["/api/notifications/read", "worker"],
    ["/api/withdrawals", "worker"],
  ] as const)("refuses a 100,000-deep JSON body on %s", async (url, caller) => {
    const headers = { "content-type": "application/json", ...(caller ? { cookie: worker.cookie } : {}) };
    for (const payload of [
      deep(100_000),
      `{"email":${deep(100_000)}}`,
      `{"a":${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}}`,
    ]) {
      expectRefused(await ctx.app.inject({ method: "POST", url, headers, payload }));
    }
  });

  it("refuses truncated and non-JSON bodies sent as JSON", async () => {
    for (const payload of ['{"email":', "not json", "\u0000"]) {
      expectRefused(
        await ctx.app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          headers: { "content-type": "application/json" },
          payload,
        }),
      );
    }
  });
});
