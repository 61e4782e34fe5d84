import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { keyOperations, operations } from "./openapi.ts";
import { testAppPerFile, testImage } from "./test/harness.ts";
import { markEmailVerified } from "./modules/users/service.ts";

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { $ref?: string }>;
}
type Document = OpenAPI3 & { paths: Record<string, Record<string, Operation>> };

const clientFolder = fileURLToPath(new URL("./test/typed-client/", import.meta.url));
const METHODS = ["get", "put", "post", "delete", "patch"];

function operationsOf(document: Document) {
  return Object.entries(document.paths).flatMap(([route, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      key: `${method.toUpperCase()} ${route}`,
      operation: item[method]!,
    })),
  );
}

describe("the API description", () => {
  const ctx = testAppPerFile();
  const documentOf = () => ctx.app.swagger() as unknown as Document;

  it("names every operation once, in camelCase, each from its declaration, and every declaration has its route", () => {
    const all = operationsOf(documentOf());
    const ids = all.map(({ operation }) => operation.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.map(({ key }) => key).sort()).toEqual(Object.keys(operations).sort());
  });

  it("says who may call each operation and documents its errors with the shared error shape", () => {
    const document = documentOf();
    expect(document.components?.securitySchemes?.sessionCookie).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "better-auth.session_token",
    });
    for (const { key, operation } of operationsOf(document)) {
      expect(operation.security, key).toBeDefined();
      const [, access] = operations[key]!;
      if (access === "public") expect(operation.security, key).toEqual([]);
      else expect(operation.security, key).toContainEqual({ sessionCookie: [] });
      expect(operation.responses["503"], key).toBeDefined();
      for (const [status, answer] of Object.entries(operation.responses))
        if (Number(status) >= 400 && key !== "GET /healthz")
          expect(answer.$ref, `${key} ${status}`).toMatch(/^#\/components\/responses\//);
    }
  });

  it("declares API keys as a bearer scheme on exactly the buyer operations that take them, each able to answer 429", () => {
    const document = documentOf();
    expect(document.components?.securitySchemes?.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    const withKeys = operationsOf(document).filter(({ operation }) =>
      operation.security?.some((requirement) => "apiKey" in requirement),
    );
    expect(withKeys.map(({ key }) => key).sort()).toEqual([...keyOperations].sort());
    expect(withKeys).toHaveLength(22);
    for (const { key, operation } of withKeys) {
      expect(operation.security, key).toEqual([{ sessionCookie: [] }, { apiKey: [] }]);
      expect(["buyer", "buyer+admin"], key).toContain(operations[key]![1]);
      expect(operation.responses["429"], key).toEqual({ $ref: "#/components/responses/RateLimited" });
    }
    for (const key of [
      "POST /api/buyer/api-keys",
      "GET /api/buyer/api-keys",
      "DELETE /api/buyer/api-keys/{id}",
    ])
      expect(keyOperations.has(key), key).toBe(false);
    for (const key of Object.keys(operations))
      if (key.includes("/api/admin/") || key.includes("/api/me") || key.includes("/api/auth/"))
        expect(keyOperations.has(key), key).toBe(false);
  });

  it("opens with an Authentication section listing exactly the operations a key may call, and a quick start", () => {
    const description = String(documentOf().info.description);
    const authentication = description.slice(
      description.indexOf("## Authentication"),
      description.indexOf("## Quick start"),
    );
    expect(authentication).toContain("Authorization: Bearer tm_...");
    expect(authentication).toContain("600 requests a minute per key");
    expect(authentication).toContain("Idempotency-Key");
    const listed = [...authentication.matchAll(/^ {2}- `([A-Z]+ \/[^`]+)` \(([a-zA-Z]+)\)$/gm)];
    expect(listed.map((match) => match[1]).sort()).toEqual([...keyOperations].sort());
    for (const [, key, operationId] of listed) expect(operations[key!]![0], key).toBe(operationId);
    const quickStart = description.slice(description.indexOf("## Quick start"));
    expect(quickStart).toContain("/dashboard/developer");
    expect(quickStart).toMatch(/curl http:\/\/[^ ]+\/api\/tasks/);
    expect(quickStart).toContain('from "standardwebhooks"');
  });

  it("refuses every signed-in operation without a session, and lets the public ones through", async () => {
    const document = documentOf();
    const someId = "00000000-0000-4000-8000-000000000000";
    for (const { key, operation } of operationsOf(document)) {
      const [method, route] = key.split(" ") as [string, string];
      const url = route
        .replace("{provider}", "google")
        .replace("{key}", "none.png")
        .replace(/\{[a-z_]+\}/g, someId);
      const response = await ctx.app.inject({
        method: method as "GET",
        url,
        ...(method === "GET" || method === "DELETE" ? {} : { payload: {} }),
      });
      const security = operation.security ?? [];
      const signedIn =
        security.length > 0 && !security.some((requirement) => Object.keys(requirement).length === 0);
      // Fastify validates a body before the route's sign-in check runs, so an empty body may answer 400 first.
      if (signedIn) expect([401, 400], `${key}: ${response.body}`).toContain(response.statusCode);
      if (signedIn && !(operation as { requestBody?: unknown }).requestBody)
        expect(response.statusCode, key).toBe(401);
      if (!signedIn && !operation.responses["401"]) expect(response.statusCode, key).not.toBe(401);
    }
  });

  it("generates types that a client of the main routes type-checks against, and the server keeps them", async () => {
    const document = documentOf();
    const blob = ts.factory.createTypeReferenceNode("Blob");
    const ast = await openapiTS(document, {
      // Files in multipart bodies are Blobs to a fetch client.
      transform: (schema) => ("format" in schema && schema.format === "binary" ? blob : undefined),
    });
    await writeFile(path.join(clientFolder, "api.gen.ts"), astToString(ast));

    const configFile = ts.readConfigFile(path.join(clientFolder, "tsconfig.json"), (file) =>
      ts.sys.readFile(file),
    );
    const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, clientFolder);
    const program = ts.createProgram(config.fileNames, config.options);
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file
        ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
        : "";
      return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    });
    expect(problems).toEqual([]);

    const address = await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    // Typed here by hand: the client's own types come from the generated file, which the server's
    // type check must not need.
    const client = (await import(path.join(clientFolder, "client.ts"))) as {
      runClient(
        baseUrl: string,
        image: Blob,
        confirmEmail: (userId: string) => Promise<void>,
      ): Promise<{ withdrawalId: string }>;
    };
    const image = new Blob([new Uint8Array(await testImage())], { type: "image/png" });
    const done = await client.runClient(address, image, (userId) => markEmailVerified(ctx.db, userId));
    expect(done.withdrawalId).toEqual(expect.any(String));
  });
});
