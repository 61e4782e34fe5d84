import { beforeAll, describe, expect, it } from "vitest";
import type { Payment, Submission, Task, Withdrawal } from "@taskmint/shared";
import { eq } from "drizzle-orm";
import { ledgerTransfers, sessions } from "./db/schema/index.ts";
import { MINT, checkLedger, transfer, walletOf } from "./modules/ledger/service.ts";
import { multipart, postTask, registerUser, signInAdmin, testAppPerFile, testImage } from "./test/harness.ts";

// Every route of the API, asked by every kind of caller. A cell is the expected status;
// null means "allowed, and exercised by the feature's own tests" (running it here would
// change the fixtures). Refused mutations must change nothing.
//
// Rule R30 adds two columns: an admin without two-factor sign-in, and an admin with it on whose
// session did not pass it (a session from before the rule). They answer as the admin does,
// except on the routes that move coins or change access (`secondFactor`), where both get 403.
//
// Issue 35 adds three columns for API keys (decision 033): the buyer's key, the other buyer's
// key, and the buyer's key sent with the admin's session cookie. A key answers as its buyer's
// session does on the routes in KEY_ROUTES and 403 everywhere else; the cookie beside it lends
// it nothing.

const CALLERS = [
  "visitor",
  "worker",
  "buyer",
  "otherBuyer",
  "admin",
  "adminWithoutTwoFactor",
  "adminUnverifiedSession",
  "buyerKey",
  "otherBuyerKey",
  "buyerKeyWithAdminCookie",
] as const;
type Caller = (typeof CALLERS)[number];
type KeyCaller = "buyerKey" | "otherBuyerKey" | "buyerKeyWithAdminCookie";
type UnverifiedAdmin = "adminWithoutTwoFactor" | "adminUnverifiedSession";
/** The two unverified admins' cells, when they differ from the admin's. */
type Expect = Record<Exclude<Caller, UnverifiedAdmin | KeyCaller>, number | null> &
  Partial<Record<UnverifiedAdmin, number | null>>;

/**
 * The routes an API key may call (decision 033): a buyer's work, for a program. Written out here
 * rather than read from the declarations, so a declaration that starts taking keys fails this test.
 */
const KEY_ROUTES = new Set([
  "POST /api/tasks",
  "PATCH /api/tasks/{id}",
  "DELETE /api/tasks/{id}",
  "GET /api/buyer/tasks",
  "GET /api/buyer/stats",
  "GET /api/buyer/submissions",
  "POST /api/submissions/{id}/approve",
  "POST /api/submissions/{id}/reject",
  "POST /api/submissions/{id}/appeal/overturn",
  "POST /api/submissions/{id}/appeal/uphold",
  "POST /api/bonuses",
  "POST /api/buyer/blocks",
  "GET /api/buyer/blocks",
  "DELETE /api/buyer/blocks/{worker_id}",
  "GET /api/buyer/webhooks",
  "POST /api/buyer/webhooks/{id}/test",
  "GET /api/buyer/webhooks/{id}/deliveries",
  "GET /api/buyer/webhooks/deliveries/{id}",
  "POST /api/buyer/webhooks/deliveries/{id}/resend",
  "POST /api/buyer/batches",
  "GET /api/buyer/batches",
  "GET /api/buyer/batches/{id}/results.csv",
]);

const expectedFor = (entry: RouteCase, caller: Caller) => {
  const { expect } = entry;
  if (caller === "buyerKey" || caller === "buyerKeyWithAdminCookie" || caller === "otherBuyerKey") {
    if (!KEY_ROUTES.has(`${entry.method} ${entry.route}`)) return 403;
    return caller === "otherBuyerKey" ? expect.otherBuyer : expect.buyer;
  }
  const cell = expect[caller];
  return cell === undefined ? expect.admin : cell;
};

/** A route that moves coins or changes access: the admin's answer, and 403 without a second factor. */
const secondFactor = (allowed: number | null): Expect => ({
  ...only("admin", allowed),
  adminWithoutTwoFactor: 403,
  adminUnverifiedSession: 403,
});

const all = (status: number): Expect => ({
  visitor: status,
  worker: status,
  buyer: status,
  otherBuyer: status,
  admin: status,
});
const signedIn = (status: number | null): Expect => ({
  visitor: 401,
  worker: status,
  buyer: status,
  otherBuyer: status,
  admin: status,
});
const only = (
  role: "worker" | "buyer" | "admin",
  allowed: number | null,
  otherBuyer: number | null = role === "buyer" ? allowed : 403,
): Expect => ({
  visitor: 401,
  worker: role === "worker" ? allowed : 403,
  buyer: role === "buyer" ? allowed : 403,
  otherBuyer,
  admin: role === "admin" ? allowed : 403,
});

interface Fixtures {
  task: Task;
  submission: Submission;
  withdrawal: Withdrawal;
  payment: Payment;
  /** A public image: the worker's profile photo. */
  upload: string;
  /** The worker's screenshot on the submission to the buyer's task (issue 31). */
  screenshot: string;
  userId: string;
  /** The id of the buyer's API key (revoking it is tested in api-keys.test.ts). */
  buyerKeyId: string;
  /** The buyer's webhook endpoint and a delivery to it (decision 035). */
  webhookId: string;
  deliveryId: string;
}

interface RouteCase {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path as the OpenAPI document names it. */
  route: string;
  url: (f: Fixtures) => string;
  body?: (f: Fixtures) => object;
  headers?: Record<string, string>;
  expect: Expect;
}

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
/** A device as a browser's PushSubscription names it: a P-256 public key and 16 auth bytes (nothing is pushed here). */
const MATRIX_PUSH_ENDPOINT = "http://127.0.0.1:9/matrix-push";
const MATRIX_PUSH_KEYS = {
  p256dh: "BDcE0_mIawnDahTkiNksiv_y4OkPuwYtBrqbTlATYSbajRLbYt51F2F1YSjnXlxCOY7V-4VbResJGQMSKCgvegA",
  auth: "ZxX_Ej8ZyasR7Y45Pxd0Lw",
};

const MATRIX: RouteCase[] = [
  { method: "GET", route: "/healthz", url: () => "/healthz", expect: all(200) },
  { method: "GET", route: "/api/config", url: () => "/api/config", expect: all(200) },
  { method: "GET", route: "/uploads/{key}", url: (f) => f.upload, expect: all(200) },
  {
    method: "GET",
    route: "/uploads/{key}",
    url: (f) => f.screenshot,
    expect: { visitor: 404, worker: 200, buyer: 200, otherBuyer: 404, admin: 200 },
  },
  { method: "POST", route: "/api/register", url: () => "/api/register", expect: all(415) },
  { method: "GET", route: "/api/me", url: () => "/api/me", expect: signedIn(200) },
  // The auth library's routes that stay open (docs/decisions/009).
  {
    method: "POST",
    route: "/api/auth/sign-in/email",
    url: () => "/api/auth/sign-in/email",
    body: () => ({ email: "nobody@example.com", password: "Wrong123" }),
    expect: all(401),
  },
  {
    method: "POST",
    route: "/api/auth/sign-in/social",
    url: () => "/api/auth/sign-in/social",
    body: () => ({ provider: "google" }),
    expect: all(404),
  },
  {
    method: "GET",
    route: "/api/auth/callback/{provider}",
    url: () => "/api/auth/callback/google?state=x&code=y",
    expect: all(302),
  },
  // Signing the fixtures' callers out would end their sessions here: the sign-out has its own tests.
  {
    method: "POST",
    route: "/api/auth/sign-out",
    url: () => "/api/auth/sign-out",
    body: () => ({}),
    expect: { visitor: 200, worker: null, buyer: null, otherBuyer: null, admin: null },
  },
  {
    method: "POST",
    route: "/api/auth/change-password",
    url: () => "/api/auth/change-password",
    body: () => ({ currentPassword: "Wrong123", newPassword: "Secret99" }),
    expect: signedIn(400),
  },
  {
    method: "POST",
    route: "/api/auth/request-password-reset",
    url: () => "/api/auth/request-password-reset",
    body: () => ({ email: "nobody@example.com" }),
    expect: all(200),
  },
  {
    method: "GET",
    route: "/api/auth/reset-password/{token}",
    url: () => "/api/auth/reset-password/no-such-token?callbackURL=/reset-password",
    expect: all(302),
  },
  {
    method: "POST",
    route: "/api/password/reset",
    url: () => "/api/password/reset",
    body: () => ({ token: "no-such-token", password: "Secret12" }),
    expect: all(400),
  },
  // Two-factor sign-in (decision 018). Only the admin of the fixtures has it on.
  {
    method: "POST",
    route: "/api/auth/two-factor/enable",
    url: () => "/api/auth/two-factor/enable",
    body: () => ({ password: "Wrong123" }),
    expect: signedIn(400),
  },
  {
    // Without a session or a sign-in's challenge: 401; a session without two-factor: 400; a wrong code: 401.
    method: "POST",
    route: "/api/auth/two-factor/verify-totp",
    url: () => "/api/auth/two-factor/verify-totp",
    body: () => ({ code: "000000" }),
    // The unverified admins: no two-factor (400), or a wrong code confirming the session (401).
    expect: {
      visitor: 401,
      worker: 400,
      buyer: 400,
      otherBuyer: 400,
      admin: null,
      adminWithoutTwoFactor: 400,
      adminUnverifiedSession: 401,
    },
  },
  {
    method: "POST",
    route: "/api/auth/two-factor/verify-backup-code",
    url: () => "/api/auth/two-factor/verify-backup-code",
    body: () => ({ code: "aaaaa-bbbbb" }),
    expect: {
      visitor: 401,
      worker: 400,
      buyer: 400,
      otherBuyer: 400,
      admin: 401,
      adminWithoutTwoFactor: 400,
    },
  },
  {
    method: "POST",
    route: "/api/auth/two-factor/disable",
    url: () => "/api/auth/two-factor/disable",
    body: () => ({ password: "Wrong123" }),
    expect: signedIn(400),
  },
  {
    method: "POST",
    route: "/api/auth/two-factor/generate-backup-codes",
    url: () => "/api/auth/two-factor/generate-backup-codes",
    body: () => ({ password: "Wrong123" }),
    expect: signedIn(400),
  },
  { method: "GET", route: "/api/me/sessions", url: () => "/api/me/sessions", expect: signedIn(200) },
  {
    // Another's session answers 404 as an unknown one does (sessions.test.ts); ending one's own is tested there.
    method: "DELETE",
    route: "/api/me/sessions/{id}",
    url: () => `/api/me/sessions/${NO_SUCH_ID}`,
    expect: signedIn(404),
  },
  { method: "PATCH", route: "/api/me", url: () => "/api/me", expect: signedIn(415) },
  // Issue 19: each user's own statement; a withdrawal is cancelled by its worker only.
  { method: "GET", route: "/api/me/statement", url: () => "/api/me/statement", expect: signedIn(200) },
  {
    method: "GET",
    route: "/api/me/statement.csv",
    url: () => "/api/me/statement.csv",
    expect: signedIn(200),
  },
  // Issue 19: email verification (the fixtures' users have confirmed theirs; the admin has not) and mail settings.
  {
    method: "GET",
    route: "/api/auth/verify-email",
    url: () => "/api/auth/verify-email?token=not.a.token",
    expect: all(302),
  },
  {
    method: "POST",
    route: "/api/me/verify-email/resend",
    url: () => "/api/me/verify-email/resend",
    expect: { ...signedIn(409), admin: 200 },
  },
  {
    method: "GET",
    route: "/api/me/notification-settings",
    url: () => "/api/me/notification-settings",
    expect: signedIn(200),
  },
  {
    method: "PUT",
    route: "/api/me/notification-settings",
    url: () => "/api/me/notification-settings",
    body: () => ({ work_decided: "mail" }),
    expect: signedIn(200),
  },
  {
    // Signed by the link, not the session: a bad signature is refused whoever asks.
    method: "POST",
    route: "/api/unsubscribe",
    url: () => "/api/unsubscribe",
    body: () => ({ token: "someone.work_decided.forged" }),
    expect: all(400),
  },
  {
    method: "POST",
    route: "/api/withdrawals/{id}/cancel",
    url: (f) => `/api/withdrawals/${f.withdrawal.id}/cancel`,
    expect: only("worker", null),
  },
  { method: "GET", route: "/api/tasks", url: () => "/api/tasks", expect: all(200) },
  { method: "GET", route: "/api/tasks/{id}", url: (f) => `/api/tasks/${f.task.id}`, expect: all(200) },
  { method: "GET", route: "/api/workers/top", url: () => "/api/workers/top", expect: all(200) },
  { method: "GET", route: "/api/categories", url: () => "/api/categories", expect: all(200) },
  {
    method: "GET",
    route: "/api/categories/{id}/picture",
    url: () => "/api/categories/surveys/picture",
    expect: all(200),
  },
  { method: "GET", route: "/api/coin-packages", url: () => "/api/coin-packages", expect: all(200) },
  { method: "POST", route: "/api/tasks", url: () => "/api/tasks", expect: only("buyer", 415) },
  {
    method: "PATCH",
    route: "/api/tasks/{id}",
    url: (f) => `/api/tasks/${f.task.id}`,
    body: () => ({ task_title: "x", task_detail: "y", submission_info: "z" }),
    expect: { ...only("buyer", null, 403) },
  },
  {
    method: "DELETE",
    route: "/api/tasks/{id}",
    url: (f) => `/api/tasks/${f.task.id}`,
    expect: { ...only("buyer", null, 403), admin: null },
  },
  { method: "GET", route: "/api/worker/tasks", url: () => "/api/worker/tasks", expect: only("worker", 200) },
  {
    method: "POST",
    route: "/api/tasks/{id}/submissions",
    url: (f) => `/api/tasks/${f.task.id}/submissions`,
    body: () => ({ submission_details: "proof" }),
    expect: only("worker", 409),
  },
  {
    method: "POST",
    route: "/api/tasks/{id}/reservations",
    url: (f) => `/api/tasks/${f.task.id}/reservations`,
    // The fixture's worker already submitted to the task: the reservation is refused and changes nothing.
    expect: only("worker", 409),
  },
  {
    method: "GET",
    route: "/api/worker/reservations",
    url: () => "/api/worker/reservations",
    expect: only("worker", 200),
  },
  {
    method: "DELETE",
    route: "/api/reservations/{id}",
    url: () => "/api/reservations/00000000-0000-4000-8000-000000000000",
    expect: only("worker", 404),
  },
  {
    method: "GET",
    route: "/api/worker/submissions",
    url: () => "/api/worker/submissions",
    expect: only("worker", 200),
  },
  { method: "GET", route: "/api/worker/stats", url: () => "/api/worker/stats", expect: only("worker", 200) },
  {
    method: "POST",
    route: "/api/withdrawals",
    url: () => "/api/withdrawals",
    body: () => ({ withdrawal_coin: 200, payment_system: "Bkash", account_number: "01712345678" }),
    expect: only("worker", null),
  },
  {
    method: "GET",
    route: "/api/worker/withdrawals",
    url: () => "/api/worker/withdrawals",
    expect: only("worker", 200),
  },
  { method: "GET", route: "/api/buyer/tasks", url: () => "/api/buyer/tasks", expect: only("buyer", 200) },
  { method: "GET", route: "/api/buyer/stats", url: () => "/api/buyer/stats", expect: only("buyer", 200) },
  {
    method: "GET",
    route: "/api/buyer/submissions",
    url: () => "/api/buyer/submissions",
    expect: only("buyer", 200),
  },
  {
    method: "POST",
    route: "/api/submissions/{id}/approve",
    url: (f) => `/api/submissions/${f.submission.id}/approve`,
    expect: only("buyer", null, 403),
  },
  {
    method: "POST",
    route: "/api/submissions/{id}/reject",
    url: (f) => `/api/submissions/${f.submission.id}/reject`,
    body: () => ({ reason: "no" }),
    expect: only("buyer", null, 403),
  },
  {
    method: "POST",
    route: "/api/payments",
    url: () => "/api/payments",
    body: () => ({ package_id: "coins-10" }),
    expect: only("buyer", null),
  },
  {
    method: "POST",
    route: "/api/payments/{id}/sandbox-confirm",
    url: (f) => `/api/payments/${f.payment.id}/sandbox-confirm`,
    body: () => ({ card_number: "4000000000000002", exp_month: 12, exp_year: 2099, cvc: "123" }),
    expect: only("buyer", null, 404),
  },
  {
    method: "POST",
    route: "/api/payments/{id}/confirm",
    url: (f) => `/api/payments/${f.payment.id}/confirm`,
    expect: only("buyer", 404, 404),
  },
  {
    method: "GET",
    route: "/api/payments/{id}",
    url: (f) => `/api/payments/${f.payment.id}`,
    expect: only("buyer", 200, 404),
  },
  { method: "GET", route: "/api/payments", url: () => "/api/payments", expect: only("buyer", 200) },
  {
    method: "POST",
    route: "/api/payments/webhook",
    url: () => "/api/payments/webhook",
    body: () => ({ type: "payment_intent.succeeded" }),
    expect: all(404),
  },
  { method: "GET", route: "/api/admin/stats", url: () => "/api/admin/stats", expect: only("admin", 200) },
  {
    method: "GET",
    route: "/api/admin/stats/daily",
    url: () => "/api/admin/stats/daily",
    expect: only("admin", 200),
  },
  {
    method: "GET",
    route: "/api/admin/ledger/check",
    url: () => "/api/admin/ledger/check",
    expect: only("admin", 200),
  },
  {
    method: "GET",
    route: "/api/admin/withdrawals",
    url: () => "/api/admin/withdrawals",
    expect: only("admin", 200),
  },
  {
    method: "POST",
    route: "/api/admin/withdrawals/{id}/approve",
    url: (f) => `/api/admin/withdrawals/${f.withdrawal.id}/approve`,
    expect: secondFactor(null),
  },
  {
    method: "POST",
    route: "/api/admin/withdrawals/{id}/reject",
    url: (f) => `/api/admin/withdrawals/${f.withdrawal.id}/reject`,
    body: () => ({ reason: "no" }),
    expect: secondFactor(null),
  },
  { method: "GET", route: "/api/admin/users", url: () => "/api/admin/users", expect: only("admin", 200) },
  {
    method: "PATCH",
    route: "/api/admin/users/{id}",
    url: (f) => `/api/admin/users/${f.userId}`,
    body: () => ({ role: "admin" }),
    expect: secondFactor(null),
  },
  {
    method: "DELETE",
    route: "/api/admin/users/{id}",
    url: (f) => `/api/admin/users/${f.userId}`,
    body: () => ({ coins: "forfeit" }),
    expect: secondFactor(null),
  },
  {
    method: "GET",
    route: "/api/admin/users/{id}/payout-review",
    url: (f) => `/api/admin/users/${f.userId}/payout-review`,
    expect: only("admin", 200),
  },
  { method: "GET", route: "/api/admin/tasks", url: () => "/api/admin/tasks", expect: only("admin", 200) },
  {
    method: "DELETE",
    route: "/api/admin/tasks/{id}",
    url: (f) => `/api/admin/tasks/${f.task.id}`,
    expect: secondFactor(null),
  },
  { method: "GET", route: "/api/notifications", url: () => "/api/notifications", expect: signedIn(200) },
  {
    method: "POST",
    route: "/api/notifications/read",
    url: () => "/api/notifications/read",
    body: () => ({ all: true }),
    expect: signedIn(200),
  },
  // An open event stream never ends, so only the refusal is asked here (the stream has its own test).
  {
    method: "GET",
    route: "/api/notifications/stream",
    url: () => "/api/notifications/stream",
    expect: signedIn(null),
  },
  { method: "GET", route: "/api/admin/audit", url: () => "/api/admin/audit", expect: only("admin", 200) },
  // Issue 18: reputation, blocks, hidden buyers, appeals, bonuses. The fixture's submission is
  // pending: it has no appeal and cannot be appealed yet.
  {
    method: "GET",
    route: "/api/workers/{id}/reputation",
    url: (f) => `/api/workers/${f.userId}/reputation`,
    expect: signedIn(200),
  },
  {
    method: "POST",
    route: "/api/buyer/blocks",
    url: () => "/api/buyer/blocks",
    body: (f) => ({ worker_id: f.userId }),
    expect: only("buyer", null),
  },
  { method: "GET", route: "/api/buyer/blocks", url: () => "/api/buyer/blocks", expect: only("buyer", 200) },
  {
    method: "DELETE",
    route: "/api/buyer/blocks/{worker_id}",
    url: () => `/api/buyer/blocks/${NO_SUCH_ID}`,
    expect: only("buyer", 404),
  },
  {
    method: "POST",
    route: "/api/worker/hidden-buyers",
    url: () => "/api/worker/hidden-buyers",
    body: () => ({ buyer_id: NO_SUCH_ID }),
    expect: only("worker", 404),
  },
  {
    method: "GET",
    route: "/api/worker/hidden-buyers",
    url: () => "/api/worker/hidden-buyers",
    expect: only("worker", 200),
  },
  {
    method: "DELETE",
    route: "/api/worker/hidden-buyers/{buyer_id}",
    url: () => `/api/worker/hidden-buyers/${NO_SUCH_ID}`,
    expect: only("worker", 404),
  },
  {
    method: "POST",
    route: "/api/submissions/{id}/appeal",
    url: (f) => `/api/submissions/${f.submission.id}/appeal`,
    body: () => ({ message: "Please look again" }),
    expect: only("worker", 409),
  },
  {
    method: "POST",
    route: "/api/submissions/{id}/appeal/overturn",
    url: (f) => `/api/submissions/${f.submission.id}/appeal/overturn`,
    expect: only("buyer", 404, 403),
  },
  {
    method: "POST",
    route: "/api/submissions/{id}/appeal/uphold",
    url: (f) => `/api/submissions/${f.submission.id}/appeal/uphold`,
    body: () => ({ answer: "The proof is missing" }),
    expect: only("buyer", 404, 403),
  },
  {
    method: "POST",
    route: "/api/submissions/{id}/appeal/escalate",
    url: (f) => `/api/submissions/${f.submission.id}/appeal/escalate`,
    expect: only("worker", 404),
  },
  { method: "GET", route: "/api/admin/appeals", url: () => "/api/admin/appeals", expect: only("admin", 200) },
  {
    method: "POST",
    route: "/api/admin/appeals/{submission_id}/decide",
    url: (f) => `/api/admin/appeals/${f.submission.id}/decide`,
    body: () => ({ decision: "overturn", answer: "Checked" }),
    expect: secondFactor(404),
  },
  {
    method: "POST",
    route: "/api/bonuses",
    url: () => "/api/bonuses",
    headers: { "idempotency-key": "matrix-bonus" },
    body: (f) => ({ submission_id: f.submission.id, coins: 1, message: "Thanks" }),
    expect: only("buyer", null, 403),
  },
  // Issue 35: API keys are managed with a session only (each buyer makes one more key here).
  {
    method: "POST",
    route: "/api/buyer/api-keys",
    url: () => "/api/buyer/api-keys",
    body: () => ({ name: "Matrix" }),
    expect: only("buyer", 201),
  },
  {
    method: "GET",
    route: "/api/buyer/api-keys",
    url: () => "/api/buyer/api-keys",
    expect: only("buyer", 200),
  },
  {
    // Another buyer's key answers 404 as an unknown one does (api-keys.test.ts).
    method: "DELETE",
    route: "/api/buyer/api-keys/{id}",
    url: (f) => `/api/buyer/api-keys/${f.buyerKeyId}`,
    expect: { ...only("buyer", null, 404) },
  },
  // Issue 35: webhooks. Added, changed and removed with a session; read, tested and resent with a
  // key too. Another buyer's endpoint or delivery answers 404 (webhooks.test.ts).
  {
    method: "POST",
    route: "/api/buyer/webhooks",
    url: () => "/api/buyer/webhooks",
    body: () => ({ url: "http://127.0.0.1:9/matrix", events: ["task.expired"] }),
    expect: only("buyer", 201),
  },
  {
    method: "GET",
    route: "/api/buyer/webhooks",
    url: () => "/api/buyer/webhooks",
    expect: only("buyer", 200),
  },
  {
    method: "PATCH",
    route: "/api/buyer/webhooks/{id}",
    url: (f) => `/api/buyer/webhooks/${f.webhookId}`,
    body: () => ({ events: ["task.expired", "task.completed"] }),
    expect: only("buyer", 200, 404),
  },
  {
    method: "DELETE",
    route: "/api/buyer/webhooks/{id}",
    url: (f) => `/api/buyer/webhooks/${f.webhookId}`,
    expect: only("buyer", null, 404),
  },
  {
    method: "POST",
    route: "/api/buyer/webhooks/{id}/test",
    url: (f) => `/api/buyer/webhooks/${f.webhookId}/test`,
    expect: only("buyer", 201, 404),
  },
  {
    method: "GET",
    route: "/api/buyer/webhooks/{id}/deliveries",
    url: (f) => `/api/buyer/webhooks/${f.webhookId}/deliveries`,
    expect: only("buyer", 200, 404),
  },
  {
    method: "GET",
    route: "/api/buyer/webhooks/deliveries/{id}",
    url: (f) => `/api/buyer/webhooks/deliveries/${f.deliveryId}`,
    expect: only("buyer", 200, 404),
  },
  {
    // The fixture's delivery is still being retried (nothing answers at its address): 409.
    method: "POST",
    route: "/api/buyer/webhooks/deliveries/{id}/resend",
    url: (f) => `/api/buyer/webhooks/deliveries/${f.deliveryId}/resend`,
    expect: only("buyer", 409, 404),
  },
  // Issue 35: batches (decision 036). Posting without a form is 415; an unknown batch, or
  // another buyer's, is 404 (batches.test.ts).
  {
    method: "POST",
    route: "/api/buyer/batches",
    url: () => "/api/buyer/batches",
    expect: only("buyer", 415),
  },
  { method: "GET", route: "/api/buyer/batches", url: () => "/api/buyer/batches", expect: only("buyer", 200) },
  {
    method: "GET",
    route: "/api/buyer/batches/{id}/results.csv",
    url: () => "/api/buyer/batches/00000000-0000-4000-8000-000000000000/results.csv",
    expect: only("buyer", 404, 404),
  },
  // Issue 36: Web Push (decision 038), for every signed-in user. Each caller posting the one
  // endpoint moves it to themselves; deleting another's answers 204 and changes nothing (push.test.ts).
  { method: "GET", route: "/api/push/public-key", url: () => "/api/push/public-key", expect: signedIn(200) },
  {
    method: "POST",
    route: "/api/me/push-subscriptions",
    url: () => "/api/me/push-subscriptions",
    body: () => ({ endpoint: MATRIX_PUSH_ENDPOINT, keys: MATRIX_PUSH_KEYS }),
    expect: signedIn(201),
  },
  {
    method: "DELETE",
    route: "/api/me/push-subscriptions",
    url: () => "/api/me/push-subscriptions",
    body: () => ({ endpoint: MATRIX_PUSH_ENDPOINT }),
    expect: signedIn(204),
  },
  { method: "GET", route: "/api/me/quiet-hours", url: () => "/api/me/quiet-hours", expect: signedIn(200) },
  {
    method: "PUT",
    route: "/api/me/quiet-hours",
    url: () => "/api/me/quiet-hours",
    body: () => ({ enabled: true, from: "22:00", to: "07:00", time_zone: "Asia/Dhaka" }),
    expect: signedIn(200),
  },
  // Issue 36: saved searches (decision 037), a worker's own; another's, or none, is 404
  // (saved-searches.test.ts).
  {
    method: "POST",
    route: "/api/me/saved-searches",
    url: () => "/api/me/saved-searches",
    body: () => ({ q: "matrix" }),
    expect: only("worker", 201),
  },
  {
    method: "GET",
    route: "/api/me/saved-searches",
    url: () => "/api/me/saved-searches",
    expect: only("worker", 200),
  },
  {
    method: "PATCH",
    route: "/api/me/saved-searches/{id}",
    url: () => `/api/me/saved-searches/${NO_SUCH_ID}`,
    body: () => ({ name: "Matrix" }),
    expect: only("worker", 404),
  },
  {
    method: "DELETE",
    route: "/api/me/saved-searches/{id}",
    url: () => `/api/me/saved-searches/${NO_SUCH_ID}`,
    expect: only("worker", 404),
  },
  {
    method: "POST",
    route: "/api/me/saved-searches/{id}/seen",
    url: () => `/api/me/saved-searches/${NO_SUCH_ID}/seen`,
    expect: only("worker", 404),
  },
];

/** The admin's session as one made before rule R30 reads: two-factor on, the session never passed it. */
async function sessionBeforeTheRule(admin: { id: string; cookie: string }) {
  await ctx.db.update(sessions).set({ twoFactorVerified: false }).where(eq(sessions.userId, admin.id));
  return admin.cookie;
}

let fixtures: Fixtures;
const cookies = {} as Record<Caller, string | undefined>;
const keys = {} as Record<KeyCaller, string>;

/** A new API key of the user of `cookie`. */
async function apiKeyOf(cookie: string) {
  const response = await ctx.app.inject({
    method: "POST",
    url: "/api/buyer/api-keys",
    headers: { cookie },
    payload: { name: "Matrix fixture" },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; key: string }>();
}

const ctx = testAppPerFile();
beforeAll(async () => {
  const worker = await registerUser(ctx.app, "worker");
  const buyer = await registerUser(ctx.app, "buyer");
  const otherBuyer = await registerUser(ctx.app, "buyer");
  Object.assign(cookies, {
    visitor: undefined,
    worker: worker.cookie,
    buyer: buyer.cookie,
    otherBuyer: otherBuyer.cookie,
    admin: (await signInAdmin(ctx, "matrix-admin@example.com")).cookie,
    adminWithoutTwoFactor: (await signInAdmin(ctx, "matrix-admin-2@example.com", { twoFactor: false }))
      .cookie,
    adminUnverifiedSession: await sessionBeforeTheRule(await signInAdmin(ctx, "matrix-admin-3@example.com")),
  });
  const task = (await postTask(ctx.app, buyer.cookie)).json<Task>();
  const proof = await multipart({
    submission_details: "proof",
    attachments: [{ bytes: await testImage(), filename: "shot.png", type: "image/png" }],
  });
  const submission = (
    await ctx.app.inject({
      method: "POST",
      url: `/api/tasks/${task.id}/submissions`,
      headers: { ...proof.headers, cookie: worker.cookie },
      payload: proof.payload,
    })
  ).json<Submission>();
  await transfer(ctx.db, {
    from: MINT,
    to: walletOf(worker.user.id),
    amount: 300,
    idempotencyKey: "matrix-earn",
  });
  const withdrawal = (
    await ctx.app.inject({
      method: "POST",
      url: "/api/withdrawals",
      headers: { cookie: worker.cookie },
      payload: { withdrawal_coin: 200, payment_system: "Bkash", account_number: "01712345678" },
    })
  ).json<Withdrawal>();
  const { payment } = (
    await ctx.app.inject({
      method: "POST",
      url: "/api/payments",
      headers: { cookie: buyer.cookie },
      payload: { package_id: "coins-10" },
    })
  ).json<{ payment: Payment }>();
  const victim = await registerUser(ctx.app, "worker");
  const buyerKey = await apiKeyOf(buyer.cookie);
  Object.assign(keys, {
    buyerKey: buyerKey.key,
    otherBuyerKey: (await apiKeyOf(otherBuyer.cookie)).key,
    buyerKeyWithAdminCookie: buyerKey.key,
  });
  cookies.buyerKeyWithAdminCookie = cookies.admin;
  const webhook = await ctx.app.inject({
    method: "POST",
    url: "/api/buyer/webhooks",
    headers: { cookie: buyer.cookie },
    payload: { url: "http://127.0.0.1:9/matrix", events: ["task.expired"] },
  });
  const webhookId = webhook.json<{ id: string }>().id;
  const delivery = await ctx.app.inject({
    method: "POST",
    url: `/api/buyer/webhooks/${webhookId}/test`,
    headers: { cookie: buyer.cookie },
  });
  fixtures = {
    task,
    submission,
    withdrawal,
    payment,
    upload: worker.user.photo ?? "",
    screenshot: submission.attachments[0] ?? "",
    userId: victim.user.id,
    buyerKeyId: buyerKey.id,
    webhookId,
    deliveryId: delivery.json<{ id: string }>().id,
  };
});

describe("authorization matrix", () => {
  it("covers every route of the OpenAPI document", async () => {
    const document = (await ctx.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const documented = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`),
    );
    const covered = new Set(MATRIX.map((entry) => `${entry.method} ${entry.route}`));
    expect(documented.filter((route) => !covered.has(route))).toEqual([]);
  });

  it("lets keys call exactly the routes the document marks with the apiKey scheme", async () => {
    const document = (await ctx.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    }>();
    const withKeys = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.security?.some((requirement) => "apiKey" in requirement))
        .map(([method]) => `${method.toUpperCase()} ${route}`),
    );
    expect(withKeys.sort()).toEqual([...KEY_ROUTES].sort());
  });

  for (const entry of MATRIX) {
    for (const caller of CALLERS) {
      const expected = expectedFor(entry, caller);
      if (expected === null) continue;
      it(`${entry.method} ${entry.route} as ${caller} answers ${expected}`, async () => {
        const transfersBefore = await ctx.db.$count(ledgerTransfers);
        const cookie = cookies[caller];
        const key = caller in keys ? keys[caller as KeyCaller] : undefined;
        const response = await ctx.app.inject({
          method: entry.method,
          url: entry.url(fixtures),
          headers: {
            ...entry.headers,
            ...(cookie ? { cookie } : {}),
            ...(key ? { authorization: `Bearer ${key}` } : {}),
          },
          ...(entry.body ? { payload: entry.body(fixtures) } : {}),
        });
        expect(response.statusCode, response.body.slice(0, 300)).toBe(expected);
        if (entry.method !== "GET" && expected >= 400) {
          expect(await ctx.db.$count(ledgerTransfers)).toBe(transfersBefore);
          expect((await checkLedger(ctx.db)).problems).toEqual([]);
        }
      });
    }
  }

  it("left the fixtures untouched: the task, submission, withdrawal and payment are as they were", async () => {
    const as = (caller: Caller, url: string) =>
      ctx.app.inject({ method: "GET", url, headers: { cookie: cookies[caller] ?? "" } });
    expect((await as("buyer", `/api/tasks/${fixtures.task.id}`)).json()).toMatchObject({
      task_title: fixtures.task.task_title,
      required_workers: 1,
      status: "open",
    });
    expect((await as("buyer", "/api/buyer/submissions?status=pending")).json()).toMatchObject({ total: 1 });
    expect((await as("admin", "/api/admin/withdrawals?status=pending")).json()).toMatchObject({ total: 1 });
    expect((await as("buyer", `/api/payments/${fixtures.payment.id}`)).json()).toMatchObject({
      status: "pending",
    });
    expect((await as("admin", "/api/admin/users?role=worker")).json()).toMatchObject({ total: 2 });
  });
});
