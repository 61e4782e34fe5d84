/**
 * The API description's parts that the route schemas do not carry (decisions 021 and 032):
 * every operation's id, who may call it, the errors it answers and its form body, from the
 * endpoint declarations; the security scheme, tags, licence and the shared error answers.
 * Applied to the generated document as its last step, so /api/openapi.json and the linted
 * file are the same.
 */
import { z } from "zod";
import {
  allEndpoints,
  type Access,
  type Endpoint,
  type ErrorStatus as Extra,
  type FormBody,
  apiErrorSchema,
  API_KEY_REQUESTS_PER_MINUTE,
  paths as pages,
} from "@taskmint/shared";
import { apiGuide } from "./openapi-guide.ts";

/** The document's path form of a router path: `/api/tasks/:id` -> `/api/tasks/{id}`. */
const documentPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}");

const declared = new Map<string, Endpoint>(
  allEndpoints.map((endpoint) => [`${endpoint.method} ${documentPath(endpoint.path)}`, endpoint]),
);

/** "METHOD /path" -> [operationId, access, extra error statuses], for every operation. */
export const operations: Record<string, readonly [string, Access, ...Extra[]]> = Object.fromEntries(
  [...declared].map(([key, endpoint]) => [
    key,
    [endpoint.operationId, endpoint.access, ...(endpoint.errors ?? [])] as const,
  ]),
);

/** "METHOD /path" of the operations an API key may call (their declarations' `keys`, decision 033). */
export const keyOperations: ReadonlySet<string> = new Set(
  [...declared].filter(([, endpoint]) => endpoint.keys === true).map(([key]) => key),
);

/** The session cookie the auth library sets (with the `__Secure-` prefix when served over https). */
export function sessionCookieName(publicUrl: string) {
  return `${publicUrl.startsWith("https:") ? "__Secure-" : ""}better-auth.session_token`;
}

const tags = [
  { name: "operations", description: "Health and the server's set-up" },
  { name: "account", description: "Registering, signing in and out, your profile, sessions and statement" },
  { name: "two-factor", description: "Two-factor sign-in with an authenticator app and backup codes" },
  { name: "tasks", description: "Browsing, posting and editing tasks" },
  { name: "worker", description: "A worker's tasks, reservations, submissions, appeals and withdrawals" },
  { name: "buyer", description: "A buyer's tasks, reviews, appeals, blocks, bonuses and coin purchases" },
  { name: "trust", description: "Reputation" },
  { name: "public", description: "Public lists: top workers and coin packages" },
  { name: "payments", description: "The payment provider's events" },
  { name: "notifications", description: "Your notifications, listed or streamed" },
  { name: "phone", description: "Saved searches with their alerts, Web Push to your devices, quiet hours" },
  { name: "uploads", description: "Stored images" },
  {
    name: "admin",
    description: "Users, tasks, withdrawals, appeals, stats and the audit trail (admins only)",
  },
];

const errorAnswers: Record<number, { name: string; description: string }> = {
  400: { name: "BadRequest", description: "VALIDATION: the input was invalid; details name the fields" },
  401: {
    name: "Unauthenticated",
    description: "UNAUTHENTICATED: sign in first, or the API key sent is malformed, revoked or unknown",
  },
  403: {
    name: "Forbidden",
    description:
      "FORBIDDEN (your role may not do this, a cross-site request, or an API key on an operation that does not take keys), NOT_QUALIFIED or TWO_FACTOR_REQUIRED",
  },
  404: { name: "NotFound", description: "NOT_FOUND" },
  409: { name: "Conflict", description: "The state does not allow it; the code says why (see api.md)" },
  413: { name: "TooLarge", description: "TOO_LARGE: an upload over its limit" },
  415: {
    name: "UnsupportedMediaType",
    description: "UNSUPPORTED_MEDIA_TYPE: not an image the server accepts",
  },
  429: {
    name: "RateLimited",
    description:
      "RATE_LIMITED: too many attempts, or an API key's requests this minute; retry after the Retry-After header's seconds",
  },
  503: {
    name: "DatabaseUnavailable",
    description: "DATABASE_UNAVAILABLE: the database is away; retry after the Retry-After header's seconds",
  },
};

const file = { type: "string", format: "binary" };
const jsonSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: "openapi-3.0", io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, unknown>;
    required?: string[];
  };

/** A multipart/form-data body: the text fields of `schema` (sent as text) and these files. */
function formBody(schema: z.ZodType, files: Record<string, object>, requiredFiles: string[]) {
  const fields = jsonSchemaOf(schema);
  return {
    type: "object",
    properties: { ...fields.properties, ...files },
    required: [...(fields.required ?? []), ...requiredFiles],
  };
}

/** The request body of an endpoint that takes a form (and, for some, JSON as well). */
function formBodyOf(form: FormBody): Record<string, object> {
  const files = Object.fromEntries(
    Object.entries(form.files).map(([name, { many }]) => [
      name,
      many ? { type: "array", items: file, maxItems: many } : file,
    ]),
  );
  const required = Object.entries(form.files)
    .filter(([, { required }]) => required)
    .map(([name]) => name);
  return {
    ...(form.json ? { "application/json": jsonSchemaOf(form.fields) } : {}),
    "multipart/form-data": formBody(form.fields, files, required),
  };
}

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

/** The error statuses an operation answers: from its inputs, its access, and its table entry. */
function errorStatusesOf(path: string, operation: Operation, access: Access, extra: Extra[], keys: boolean) {
  const statuses = new Set<number>(extra);
  if (keys) statuses.add(429);
  if (operation.parameters?.length || operation.requestBody) statuses.add(400);
  if (access !== "public" && access !== "optional") statuses.add(401);
  if (access !== "public" && access !== "optional" && access !== "user") statuses.add(403);
  if (path.includes("{")) statuses.add(404);
  statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Completes the generated document (the swagger plugin's transformObject). */
export function describeApi<T>(document: T, publicUrl: string): T {
  const doc = document as {
    info: Record<string, unknown>;
    tags?: unknown;
    components?: Record<string, Record<string, unknown>>;
    paths: Record<string, Record<string, Operation>>;
  };
  // No public licence: the API is the marketplace's own; its About page says whose.
  doc.info.license = { name: "Proprietary", url: new URL(pages.about, publicUrl).href };
  doc.info.description = apiGuide(
    publicUrl,
    [...keyOperations].map((key) => [key, operations[key]![0]] as const),
  );
  doc.tags = tags;
  doc.components ??= {};
  doc.components.securitySchemes = {
    sessionCookie: {
      type: "apiKey",
      in: "cookie",
      name: sessionCookieName(publicUrl),
      description: "The session cookie that signing in sets (POST /api/auth/sign-in/email or /api/register)",
    },
    apiKey: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "tm_<43 characters>",
      description: `A buyer's API key (POST /api/buyer/api-keys, with a session), sent as \`Authorization: Bearer tm_...\`. It acts as its buyer on the operations that list this scheme and is refused on every other (403); a revoked or malformed key is 401. No Origin header is needed. ${API_KEY_REQUESTS_PER_MINUTE} requests a minute per key, then 429 with Retry-After.`,
    },
  };
  doc.components.schemas = {
    ...doc.components.schemas,
    Error: z.toJSONSchema(apiErrorSchema, { target: "openapi-3.0" }),
  };
  doc.components.responses = Object.fromEntries(
    Object.values(errorAnswers).map(({ name, description }) => [
      name,
      { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    ]),
  );
  const signedIn = [{ sessionCookie: [] }];
  const signedInOrKey: Record<string, string[]>[] = [{ sessionCookie: [] }, { apiKey: [] }];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const entry = operations[`${method.toUpperCase()} ${path}`];
      if (!entry) throw new Error(`${method.toUpperCase()} ${path} has no entry in the operations table`);
      const [operationId, access, ...extra] = entry;
      const form = declared.get(`${method.toUpperCase()} ${path}`)?.form;
      const body = form ? formBodyOf(form) : undefined;
      if (body && !operation.requestBody)
        operation.requestBody = {
          required: true,
          content: Object.fromEntries(Object.entries(body).map(([type, schema]) => [type, { schema }])),
        };
      const keys = keyOperations.has(`${method.toUpperCase()} ${path}`);
      operation.operationId = operationId;
      operation.security =
        access === "public"
          ? []
          : access === "optional"
            ? [{}, ...signedIn]
            : keys
              ? signedInOrKey
              : signedIn;
      operation.responses ??= {};
      for (const status of errorStatusesOf(path, operation, access, extra, keys)) {
        operation.responses[String(status)] ??= {
          $ref: `#/components/responses/${errorAnswers[status]!.name}`,
        };
      }
    }
  }
  return document;
}
