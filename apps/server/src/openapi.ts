/**
 * The API description's own parts that the route schemas do not carry (decision 021): every
 * operation's id, who may call it, and the errors it answers, in one table; the security
 * scheme, tags, licence and the shared error answers. Applied to the generated document as
 * its last step, so /api/openapi.json and the linted file are the same.
 */
import { z } from "zod";
import {
  allEndpoints,
  type Access,
  type Endpoint,
  type ErrorStatus as Extra,
  type FormBody,
  apiErrorSchema,
  createTaskFieldsSchema,
  nameSchema,
  paths as pages,
  registerFieldsSchema,
  submitWorkSchema,
} from "@taskmint/shared";

/** "METHOD /path" (the document's path form) -> [operationId, access, extra error statuses]. */
const undeclared: Record<string, readonly [string, Access, ...Extra[]]> = {
  "GET /healthz": ["checkHealth", "public"],
  "GET /api/config": ["getConfig", "public"],
  "POST /api/auth/sign-in/email": ["signInWithEmail", "public", 401, 403, 429],
  "POST /api/auth/sign-in/social": ["signInWithGoogle", "public", 404, 429],
  "GET /api/auth/callback/{provider}": ["finishGoogleSignIn", "public"],
  "POST /api/auth/sign-out": ["signOut", "optional"],
  "POST /api/auth/change-password": ["changePassword", "user", 429],
  "POST /api/auth/request-password-reset": ["requestPasswordReset", "public", 429],
  "GET /api/auth/reset-password/{token}": ["openPasswordResetLink", "public"],
  "GET /api/auth/verify-email": ["openEmailVerificationLink", "public"],
  "POST /api/me/verify-email/resend": ["resendEmailVerification", "user", 409, 429],
  "POST /api/auth/two-factor/enable": ["enableTwoFactor", "user", 429],
  "POST /api/auth/two-factor/verify-totp": ["verifyTwoFactorCode", "optional", 401, 429],
  "POST /api/auth/two-factor/verify-backup-code": ["verifyBackupCode", "optional", 401, 429],
  "POST /api/auth/two-factor/disable": ["disableTwoFactor", "user", 429],
  "POST /api/auth/two-factor/generate-backup-codes": ["generateBackupCodes", "user", 429],
  "POST /api/register": ["register", "public", 409, 413, 415, 429],
  "GET /api/me": ["getMe", "user"],
  "PATCH /api/me": ["updateMe", "user", 413, 415],
  "POST /api/password/reset": ["resetPassword", "public", 429],
  "GET /api/me/sessions": ["listMySessions", "user"],
  "DELETE /api/me/sessions/{id}": ["endMySession", "user"],
  "GET /api/admin/ledger/check": ["checkLedger", "admin"],
  "GET /api/me/statement": ["getMyStatement", "user"],
  "GET /api/me/statement.csv": ["downloadMyStatement", "user"],
  "GET /uploads/{key}": ["getUpload", "optional"],
  "GET /api/categories": ["listCategories", "public"],
  "GET /api/tasks": ["listTasks", "optional"],
  "POST /api/tasks": ["createTask", "buyer", 409, 413, 415],
  "GET /api/tasks/{id}": ["getTask", "optional"],
  "PATCH /api/tasks/{id}": ["updateTask", "buyer"],
  "DELETE /api/tasks/{id}": ["deleteTask", "buyer+admin", 409],
  "GET /api/worker/tasks": ["listWorkerTasks", "worker"],
  "GET /api/buyer/tasks": ["listBuyerTasks", "buyer"],
  "POST /api/tasks/{id}/submissions": ["submitWork", "worker", 409, 413, 415],
  "GET /api/worker/submissions": ["listWorkerSubmissions", "worker"],
  "GET /api/buyer/submissions": ["listBuyerSubmissions", "buyer"],
  "POST /api/submissions/{id}/approve": ["approveSubmission", "buyer", 409],
  "POST /api/submissions/{id}/reject": ["rejectSubmission", "buyer", 409],
  "POST /api/tasks/{id}/reservations": ["reserveSlot", "worker", 409],
  "GET /api/worker/reservations": ["listMyReservations", "worker"],
  "DELETE /api/reservations/{id}": ["cancelReservation", "worker", 409],
  "GET /api/workers/{id}/reputation": ["getWorkerReputation", "user"],
  "POST /api/buyer/blocks": ["blockWorker", "buyer", 404, 409],
  "GET /api/buyer/blocks": ["listBlockedWorkers", "buyer"],
  "DELETE /api/buyer/blocks/{worker_id}": ["unblockWorker", "buyer"],
  "POST /api/worker/hidden-buyers": ["hideBuyer", "worker", 404, 409],
  "GET /api/worker/hidden-buyers": ["listHiddenBuyers", "worker"],
  "DELETE /api/worker/hidden-buyers/{buyer_id}": ["unhideBuyer", "worker"],
  "POST /api/submissions/{id}/appeal": ["appealRejection", "worker", 409],
  "POST /api/submissions/{id}/appeal/overturn": ["overturnRejection", "buyer", 409],
  "POST /api/submissions/{id}/appeal/uphold": ["upholdRejection", "buyer", 409],
  "POST /api/submissions/{id}/appeal/escalate": ["escalateAppeal", "worker", 409],
  "GET /api/admin/appeals": ["listEscalatedAppeals", "admin"],
  "POST /api/admin/appeals/{submission_id}/decide": ["decideAppeal", "admin", 409],
  "POST /api/bonuses": ["sendBonus", "buyer", 404, 409],
  "GET /api/workers/top": ["listTopWorkers", "public"],
  "GET /api/worker/stats": ["getWorkerStats", "worker"],
  "GET /api/buyer/stats": ["getBuyerStats", "buyer"],
  "GET /api/admin/stats": ["getAdminStats", "admin"],
  "GET /api/admin/stats/daily": ["getDailyStats", "admin"],
  "POST /api/withdrawals": ["requestWithdrawal", "worker", 403, 409],
  "GET /api/worker/withdrawals": ["listMyWithdrawals", "worker"],
  "POST /api/withdrawals/{id}/cancel": ["cancelWithdrawal", "worker", 409],
  "GET /api/admin/withdrawals": ["listWithdrawals", "admin"],
  "POST /api/admin/withdrawals/{id}/approve": ["approveWithdrawal", "admin", 409],
  "POST /api/admin/withdrawals/{id}/reject": ["rejectWithdrawal", "admin", 409],
  "GET /api/coin-packages": ["listCoinPackages", "public"],
  "POST /api/payments": ["startPayment", "buyer"],
  "GET /api/payments": ["listMyPayments", "buyer"],
  "POST /api/payments/{id}/sandbox-confirm": ["confirmSandboxPayment", "buyer", 409],
  "POST /api/payments/{id}/confirm": ["confirmPayment", "buyer", 409],
  "GET /api/payments/{id}": ["getPayment", "buyer"],
  "POST /api/payments/webhook": ["receivePaymentEvent", "public", 400],
  "GET /api/admin/users": ["listUsers", "admin"],
  "PATCH /api/admin/users/{id}": ["changeUserRole", "admin", 409],
  "GET /api/admin/users/{id}/payout-review": ["reviewPayoutOnDeletion", "admin"],
  "DELETE /api/admin/users/{id}": ["deleteUser", "admin", 409],
  "GET /api/admin/tasks": ["listAllTasks", "admin"],
  "DELETE /api/admin/tasks/{id}": ["deleteAnyTask", "admin", 409],
  "GET /api/admin/audit": ["listAuditTrail", "admin"],
  "GET /api/notifications": ["listNotifications", "user"],
  "POST /api/notifications/read": ["markNotificationsRead", "user"],
  "GET /api/me/notification-settings": ["getNotificationSettings", "user"],
  "PUT /api/me/notification-settings": ["updateNotificationSettings", "user"],
  "POST /api/unsubscribe": ["unsubscribeFromMail", "public"],
  "GET /api/notifications/stream": ["streamNotifications", "user"],
};

/** The document's path form of a router path: `/api/tasks/:id` -> `/api/tasks/{id}`. */
const documentPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}");

const declared = new Map<string, Endpoint>(
  allEndpoints.map((endpoint) => [`${endpoint.method} ${documentPath(endpoint.path)}`, endpoint]),
);

/** "METHOD /path" -> [operationId, access, extra error statuses], for every operation. */
export const operations: Record<string, readonly [string, Access, ...Extra[]]> = {
  ...undeclared,
  ...Object.fromEntries(
    [...declared].map(([key, endpoint]) => [
      key,
      [endpoint.operationId, endpoint.access, ...(endpoint.errors ?? [])] as const,
    ]),
  ),
};

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
  { name: "uploads", description: "Stored images" },
  {
    name: "admin",
    description: "Users, tasks, withdrawals, appeals, stats and the audit trail (admins only)",
  },
];

const errorAnswers: Record<number, { name: string; description: string }> = {
  400: { name: "BadRequest", description: "VALIDATION: the input was invalid; details name the fields" },
  401: { name: "Unauthenticated", description: "UNAUTHENTICATED: sign in first" },
  403: {
    name: "Forbidden",
    description:
      "FORBIDDEN (your role may not do this, or a cross-site request), NOT_QUALIFIED or TWO_FACTOR_REQUIRED",
  },
  404: { name: "NotFound", description: "NOT_FOUND" },
  409: { name: "Conflict", description: "The state does not allow it; the code says why (see api.md)" },
  413: { name: "TooLarge", description: "TOO_LARGE: an upload over its limit" },
  415: {
    name: "UnsupportedMediaType",
    description: "UNSUPPORTED_MEDIA_TYPE: not an image the server accepts",
  },
  429: { name: "RateLimited", description: "RATE_LIMITED: too many attempts; retry later" },
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

/**
 * The bodies the routes read themselves (multipart forms, whose fields the route's own schema
 * parses), so the document says what they take.
 */
const requestBodies: Record<string, Record<string, object>> = {
  "POST /api/register": {
    "multipart/form-data": formBody(registerFieldsSchema, { photo: file }, ["photo"]),
  },
  "PATCH /api/me": {
    "multipart/form-data": formBody(z.object({ name: nameSchema.optional() }), { photo: file }, []),
  },
  "POST /api/tasks": {
    "multipart/form-data": formBody(createTaskFieldsSchema, { task_image: file }, ["task_image"]),
  },
  "POST /api/tasks/{id}/submissions": {
    "application/json": jsonSchemaOf(submitWorkSchema),
    "multipart/form-data": formBody(
      submitWorkSchema,
      { attachments: { type: "array", items: file, maxItems: 3 } },
      [],
    ),
  },
};

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

/** The error statuses an operation answers: from its inputs, its access, and its table entry. */
function errorStatusesOf(path: string, operation: Operation, access: Access, extra: Extra[]) {
  const statuses = new Set<number>(extra);
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
  doc.tags = tags;
  doc.components ??= {};
  doc.components.securitySchemes = {
    sessionCookie: {
      type: "apiKey",
      in: "cookie",
      name: sessionCookieName(publicUrl),
      description: "The session cookie that signing in sets (POST /api/auth/sign-in/email or /api/register)",
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
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const entry = operations[`${method.toUpperCase()} ${path}`];
      if (!entry) throw new Error(`${method.toUpperCase()} ${path} has no entry in the operations table`);
      const [operationId, access, ...extra] = entry;
      const form = declared.get(`${method.toUpperCase()} ${path}`)?.form;
      const body = form ? formBodyOf(form) : requestBodies[`${method.toUpperCase()} ${path}`];
      if (body && !operation.requestBody)
        operation.requestBody = {
          required: true,
          content: Object.fromEntries(Object.entries(body).map(([type, schema]) => [type, { schema }])),
        };
      operation.operationId = operationId;
      operation.security = access === "public" ? [] : access === "optional" ? [{}, ...signedIn] : signedIn;
      operation.responses ??= {};
      for (const status of errorStatusesOf(path, operation, access, extra)) {
        operation.responses[String(status)] ??= {
          $ref: `#/components/responses/${errorAnswers[status]!.name}`,
        };
      }
    }
  }
  return document;
}
