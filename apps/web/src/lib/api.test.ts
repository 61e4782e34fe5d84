// @vitest-environment node
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, ApiError, errorMessage } from "./api.ts";

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

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe("the API client", () => {
  it("sends JSON as JSON, a form as a form, and nothing as a GET", async () => {
    expect(await api(`${base}/echo`)).toEqual({ method: "GET", type: null, body: "" });
    expect(await api(`${base}/echo`, { body: { a: 1 } })).toEqual({
      method: "POST",
      type: "application/json",
      body: '{"a":1}',
    });
    const form = new FormData();
    form.append("name", "Ada");
    const sent = await api<{ type: string; body: string }>(`${base}/echo`, { method: "PATCH", body: form });
    expect(sent.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toContain("Ada");
    expect(await api(`${base}/empty`)).toBeUndefined();
  });

  it("turns an error answer into an ApiError with its code, message and field messages", async () => {
    const error = await refusal(api(`${base}/refused`, { body: {} }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: "VALIDATION", message: "Title is required" });
    // Only the fields' messages: anything else in details is not a field.
    expect((error as ApiError).details).toEqual({ task_title: "Title is required" });
    expect(errorMessage(error, "Failed")).toBe("Title is required");
  });

  it("says what failed when the answer is not the API's", async () => {
    const error = await refusal(api(`${base}/gateway`));
    expect(error).toMatchObject({ status: 502, code: "HTTP_ERROR", message: "Request failed (502)" });
    expect((error as ApiError).details).toBeUndefined();
  });

  it("says the server cannot be reached when nothing answers", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await refusal(api(`http://127.0.0.1:${port}/anything`));
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
