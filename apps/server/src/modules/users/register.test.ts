import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PASSWORD_RULE_MESSAGE, type User } from "@taskmint/shared";
import { ledgerTransfers, uploads, users } from "../../db/schema/index.ts";
import { multipart, registerUser, sessionCookie, testAppPerFile, testImage } from "../../test/harness.ts";

const ctx = testAppPerFile();

async function register(fields: Record<string, string | { bytes: Buffer; filename: string; type: string }>) {
  return ctx.app.inject({ method: "POST", url: "/api/register", ...(await multipart(fields)) });
}

async function validFields(overrides: Record<string, string> = {}) {
  return {
    name: "Ann Lee",
    role: "worker",
    email: `ann${Math.random().toString(36).slice(2)}@example.com`,
    password: "Secret12",
    photo: { bytes: await testImage(), filename: "ann.png", type: "image/png" },
    ...overrides,
  };
}

describe("POST /api/register", () => {
  it("creates a worker with 10 coins, a stored photo and a session", async () => {
    const response = await register(await validFields());
    expect(response.statusCode, response.body).toBe(201);
    const { user } = response.json<{ user: User }>();
    expect(user).toMatchObject({ name: "Ann Lee", role: "worker", coins: 10 });
    expect(user.photo).toMatch(/^\/uploads\/[0-9a-f-]{36}\.webp$/);

    const photo = await ctx.app.inject({ method: "GET", url: user.photo ?? "" });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/webp");
    expect(photo.headers["cache-control"]).toContain("immutable");

    const me = await ctx.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { cookie: sessionCookie(response) },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ user: User }>().user.email).toBe(user.email);
  });

  it("gives a buyer 50 coins", async () => {
    const { user } = await registerUser(ctx.app, "buyer");
    expect(user.coins).toBe(50);
  });

  it("grants the starting coins once: a second registration with the same email is refused and grants nothing", async () => {
    const fields = await validFields();
    expect((await register(fields)).statusCode).toBe(201);
    const transfersBefore = await ctx.db.$count(ledgerTransfers);
    const again = await register({ ...fields, email: fields.email.toUpperCase(), role: "buyer" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: "EMAIL_TAKEN" } });
    expect(await ctx.db.$count(ledgerTransfers)).toBe(transfersBefore);
    expect(await ctx.db.$count(users, eq(users.email, fields.email))).toBe(1);
  });

  it.each([
    ["name", { name: "" }, "Name is required"],
    ["role", { role: "" }, "Select your role"],
    ["email", { email: "" }, "Email is required"],
    ["email", { email: "not-an-email" }, "Enter a valid email address"],
    ["password", { password: "" }, "Password is required"],
    ["password", { password: "short" }, PASSWORD_RULE_MESSAGE],
    ["password", { password: "alllowercase" }, PASSWORD_RULE_MESSAGE],
    ["password", { password: "ALLUPPERCASE" }, PASSWORD_RULE_MESSAGE],
  ])("refuses a bad %s (%j) with its message and saves nothing", async (field, override, message) => {
    const usersBefore = await ctx.db.$count(users);
    const response = await register(await validFields(override));
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: { code: string; details: Record<string, string> } }>();
    expect(body.error.code).toBe("VALIDATION");
    expect(body.error.details[field]).toBe(message);
    expect(await ctx.db.$count(users)).toBe(usersBefore);
  });

  it("signs up without a photo (rule R29): no photo stored, the initials stand in on the web", async () => {
    const uploadsBefore = await ctx.db.$count(uploads);
    const { photo: _photo, ...withoutPhoto } = await validFields();
    const response = await register(withoutPhoto);
    expect(response.statusCode, response.body).toBe(201);
    const { user } = response.json<{ user: User }>();
    expect(user).toMatchObject({ name: "Ann Lee", role: "worker", coins: 10, photo: null });
    expect(await ctx.db.$count(uploads)).toBe(uploadsBefore);
    const me = await ctx.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { cookie: sessionCookie(response) },
    });
    expect(me.json<{ user: User }>().user.photo).toBeNull();
  });

  it("takes an empty file part, as a browser sends for an untouched file input, as no photo", async () => {
    const response = await register({
      ...(await validFields()),
      photo: { bytes: Buffer.alloc(0), filename: "", type: "application/octet-stream" },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ user: User }>().user.photo).toBeNull();
  });

  it("refuses the admin role: admins cannot be self-chosen", async () => {
    const response = await register(await validFields({ role: "admin" }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { details: { role: "Select your role" } } });
  });

  it("refuses a non-image renamed .png with 415 and keeps no file", async () => {
    const uploadsBefore = await ctx.db.$count(uploads);
    const fields = await validFields();
    const response = await register({
      ...fields,
      photo: { bytes: Buffer.from("#!/bin/sh\necho pwned\n"), filename: "evil.png", type: "image/png" },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ error: { code: "UNSUPPORTED_MEDIA_TYPE" } });
    expect(await ctx.db.$count(uploads)).toBe(uploadsBefore);
    expect(await ctx.db.$count(users, eq(users.email, fields.email))).toBe(0);
  });

  it("refuses a photo over 5 MB with 413", async () => {
    const big = Buffer.concat([await testImage(), Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const response = await register({
      ...(await validFields()),
      photo: { bytes: big, filename: "big.png", type: "image/png" },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: { code: "TOO_LARGE" } });
  });

  it("refuses a JSON body with 415", async () => {
    const response = await ctx.app.inject({ method: "POST", url: "/api/register", payload: { name: "x" } });
    expect(response.statusCode).toBe(415);
  });

  it("accepts a JPEG and re-encodes it to WebP", async () => {
    const response = await register({
      ...(await validFields()),
      photo: { bytes: await testImage("jpeg"), filename: "x.jpg", type: "image/jpeg" },
    });
    expect(response.statusCode).toBe(201);
    const photo = await ctx.app.inject({
      method: "GET",
      url: response.json<{ user: User }>().user.photo ?? "",
    });
    expect(photo.rawPayload.subarray(8, 12).toString()).toBe("WEBP");
  });
});
