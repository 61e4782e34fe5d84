import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { generate, generatedFile, keyOperationsOnly } from "../scripts/generate.ts";

describe("the buyer client's types", () => {
  it("are committed as a fresh generation from the server's API description makes them", async () => {
    // On failure: `npm run client:generate`, look at the diff, commit it.
    expect(await readFile(generatedFile, "utf8")).toBe(await generate());
  });

  it("keep only the operations that list the apiKey scheme, dropping paths left with none", () => {
    const withKey = { security: [{ sessionCookie: [] }, { apiKey: [] }], responses: {} };
    const sessionOnly = { security: [{ sessionCookie: [] }], responses: {} };
    const kept = keyOperationsOnly({
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/api/tasks": { post: withKey, get: sessionOnly },
        "/api/buyer/api-keys": { post: sessionOnly },
        "/api/public": { get: { security: [], responses: {} } },
      },
    });
    expect(kept.paths).toEqual({ "/api/tasks": { post: withKey } });
  });
});
