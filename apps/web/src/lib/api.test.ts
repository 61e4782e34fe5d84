// @vitest-environment node
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineEndpoint, type Endpoint, type Method } from "@taskmint/shared";
import { call, ApiError, errorMessage } from "./api.ts";

// A real local server stands in for ours: each path answers as the API would, and echoes what
// the client sent.
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const reply = (status: number, text: string, type = "application/json") => {
        response.writeHead(status, { "content-type": type });
        response.end(text);
      };
      if (request.url === "/refused")
        return reply(
          422,
          JSON.stringify({
            error: {
              code: "VALIDATION",
              message: "Title is required",
              details: { task_title: "Title is required", nested: { no: 1 } },
            },
          }),
        );
      if (request.url === "/gateway") return reply(502, "<html>Bad gateway</html>", "text/html");
      if (request.url === "/empty") return reply(204, "");
      if (request.url?.startsWith("/query")) return reply(200, JSON.stringify({ url: request.url }));
      if (request.url?.startsWith("/echo/")) return reply(200, JSON.stringify({ url: request.url }));
      return reply(
        200,
        JSON.stringify({ method: request.method, type: request.headers["content-type"] ?? null, body }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** An endpoint of the stand-in server, declared as the app's are. */
const at = (path: string, method: Method = "GET", response?: Endpoint["response"]) =>
  defineEndpoint({
    method,
    path: `${base}${path}`,
    operationId: "standIn",
    access: "public",
    tags: [],
    summary: "The stand-in server",
    ...(response ? { response } : {}),
  });
const echoed = z.object({ method: z.string(), type: z.string().nullable(), body: z.string() });

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe("the API client", () => {
  it("sends JSON as JSON, a form as a form, and nothing as a GET", async () => {
    expect(await call(at("/echo"))).toEqual({ method: "GET", type: null, body: "" });
    const json = defineEndpoint({ ...at("/echo", "POST"), body: z.object({ a: z.number() }) });
    expect(await call(json, { body: { a: 1 } })).toEqual({
      method: "POST",
      type: "application/json",
      body: '{"a":1}',
    });
    const form = new FormData();
    form.append("name", "Ada");
    const formEndpoint = defineEndpoint({
      ...at("/echo", "PATCH"),
      response: { 200: echoed },
      form: { fields: z.object({ name: z.string() }), files: {} },
    });
    const sent = await call(formEndpoint, { body: form });
    expect(sent.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toContain("Ada");
    expect(await call(at("/empty"))).toBeUndefined();
  });

  it("fills in the path's parameters escaped, and the query without the fields left out", async () => {
    const endpoint = defineEndpoint({ ...at("/echo/:id"), params: z.object({ id: z.string() }) });
    expect(await call(endpoint, { params: { id: "a/b c" } })).toEqual({ url: "/echo/a%2Fb%20c" });
    const withQuery = defineEndpoint({
      ...at("/query"),
      query: z.object({ page: z.number(), q: z.string().optional() }),
    });
    expect(await call(withQuery, { query: { page: 2, q: undefined } })).toEqual({ url: "/query?page=2" });
    expect(await call(withQuery, { query: { page: 1, q: "a&b" } })).toEqual({ url: "/query?page=1&q=a%26b" });
  });

  it("checks the answer against the declared shape, and refuses one that differs", async () => {
    expect(await call(at("/echo", "GET", { 200: echoed }))).toEqual({ method: "GET", type: null, body: "" });
    const wrongShape = at("/echo", "GET", { 200: z.object({ method: z.number() }) });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const error = await refusal(call(wrongShape));
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: "UNEXPECTED_ANSWER" });
    expect(await call(at("/empty", "DELETE", { 204: z.null() }))).toBeNull();
  });

  it("turns an error answer into an ApiError with its code, message and field messages", async () => {
    const error = await refusal(call(at("/refused", "POST")));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: "VALIDATION", message: "Title is required" });
    // Only the fields' messages: anything else in details is not a field.
    expect((error as ApiError).details).toEqual({ task_title: "Title is required" });
    expect(errorMessage(error, "Failed")).toBe("Title is required");
  });

  it("says what failed when the answer is not the API's", async () => {
    const error = await refusal(call(at("/gateway")));
    expect(error).toMatchObject({ status: 502, code: "HTTP_ERROR", message: "Request failed (502)" });
    expect((error as ApiError).details).toBeUndefined();
  });

  it("says the server cannot be reached when nothing answers", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await refusal(
      call(defineEndpoint({ ...at("/anything"), path: `http://127.0.0.1:${port}/anything` })),
    );
    expect(error).toMatchObject({ status: 0, code: "NETWORK" });
    expect(errorMessage(error, "Failed")).toBe(
      "Cannot reach the server. Check your connection and try again.",
    );
  });

  it("falls back to the caller's message for anything but an API error", () => {
    expect(errorMessage(new Error("boom"), "Failed to save")).toBe("Failed to save");
    expect(errorMessage(undefined, "Failed to save")).toBe("Failed to save");
  });
});
