import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { pino } from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, expect, inject } from "vitest";
import type {
  CreatedApiKey,
  CursorPage,
  SelfRegisterRole,
  StatementEntry,
  Submission,
  Task,
  User,
} from "@taskmint/shared";
import { buildApp, type App } from "../app.ts";
import { openDatabase, type Database, type DbHandle } from "../db/client.ts";
import { loadEnv } from "../env.ts";
import { checkLedger, MINT, transfer, walletOf } from "../modules/ledger/service.ts";
import { notify } from "../modules/notifications/service.ts";
import { checkStatsCounters } from "../modules/stats/service.ts";
import { checkWorkerReputations } from "../modules/trust/service.ts";
import { ensureAdmin, markEmailVerified } from "../modules/users/service.ts";
import { DEVICE_COOKIE } from "../modules/users/sightings.ts";
import { twoFactors } from "../db/schema/index.ts";
import { currentTotpCode, freshTotpCode, totpSecretOf } from "./totp.ts";
import type { WebRenderer } from "../modules/tasks/task-list-page.ts";

export const TEST_ORIGIN = "http://localhost:3000";

declare module "vitest" {
  export interface ProvidedContext {
    /** A tarball of an in-memory PGlite with every migration applied (global-setup.ts); null on PostgreSQL. */
    migratedPgliteSnapshot: string | null;
  }
}

export interface TestContext {
  app: App;
  db: Database;
  handle: DbHandle;
  /** Closes the app and fails the file if the ledger's invariants broke (rule M3). */
  close(): Promise<void>;
}

/**
 * Opens the test database: a fresh in-memory PGlite (from the run's migrated snapshot, see
 * global-setup.ts), or the worker's PostgreSQL database (emptied unless `keepData`), reached at
 * `databaseUrl` when given (a proxy in front of it).
 */
export async function openTestDatabase(
  options: { keepData?: boolean; databaseUrl?: string } = {},
): Promise<DbHandle> {
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  const snapshotFile = databaseUrl ? null : inject("migratedPgliteSnapshot");
  const handle = await openDatabase({
    databaseUrl,
    dataDir: null,
    log,
    pgliteSnapshot: snapshotFile ? new Blob([await readFile(snapshotFile)]) : undefined,
  });
  await handle.migrate();
  if (handle.kind === "postgres" && !options.keepData) await resetDatabase(handle.db);
  return handle;
}

/** Empties every table and restores the ledger's system accounts (the state right after migrating). */
export async function resetDatabase(db: Database) {
  await db.execute(
    sql`truncate table platform_counters, audit_log, payments, notifications, withdrawals, submissions, tasks, ledger_transfers, ledger_accounts, uploads, sessions, accounts, verifications, users, jobs, rate_limit_counters restart identity cascade`,
  );
  await db.execute(
    sql`insert into ledger_accounts (kind, owner_key) values ('mint', 'mint'), ('payout', 'payout')`,
  );
}

/** A clock the test moves by hand. */
export class TestClock {
  constructor(private current = new Date()) {}
  now = () => new Date(this.current);
  advanceDays(days: number) {
    this.advanceMs(days * 24 * 60 * 60 * 1000);
  }
  advanceMs(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Adds test-only routes before the app starts. */
  configure?: (app: App) => void;
  clock?: TestClock;
  /** Run a second app on the database of a running one, as a second server process would. */
  joining?: DbHandle;
  /** Where the app reaches PostgreSQL, when not at DATABASE_URL itself. */
  databaseUrl?: string;
  /**
   * A built web app to serve (none by default), and how All Tasks is rendered with its data
   * (unset: the server-side bundle beside webDist, as in production).
   */
  web?: { webDist: string; webRenderer?: WebRenderer | null };
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const { env: envOverrides = {}, configure, clock, joining, databaseUrl, web } = options;
  // PGlite lives inside one process, so a second app shares its handle; PostgreSQL gets a connection of its own.
  const handle =
    joining?.kind === "pglite"
      ? joining
      : await openTestDatabase({ keepData: Boolean(joining), databaseUrl });
  const env = loadEnv({
    NODE_ENV: "test",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    AUTH_RATE_LIMIT: "0",
    PUBLIC_URL: TEST_ORIGIN,
    // The tests pass the auth secret and keep the database in memory: nothing is written here.
    DATA_DIR: tmpdir(),
    ...envOverrides,
  });
  const app = await buildApp({
    env,
    database: handle,
    authSecret: "test-secret-test-secret-test-secret!",
    webDist: web?.webDist ?? null,
    webRenderer: web ? web.webRenderer : null,
    clock: clock?.now,
  });
  configure?.(app);
  await app.ready();
  return {
    app,
    db: handle.db,
    handle,
    async close() {
      const problems = [
        ...(await checkLedger(handle.db)).problems,
        ...(await checkStatsCounters(handle.db)),
        ...(await checkWorkerReputations(handle.db)),
      ];
      await app.close();
      if (handle !== joining) await handle.close();
      expect(problems).toEqual([]);
    },
  };
}

/**
 * One app for the enclosing file or `describe` block: started in its beforeAll (before the
 * hooks declared after this call), closed in its afterAll. Read it inside hooks and tests.
 */
export function testAppPerFile(options: TestAppOptions | (() => TestAppOptions) = {}): TestContext {
  let started: TestContext | undefined;
  beforeAll(async () => {
    // A function when the options come from something started in an earlier hook (a mail catcher).
    started = await startTestApp(typeof options === "function" ? options() : options);
  });
  afterAll(() => started?.close());
  const current = () => {
    if (!started) throw new Error("the test app starts in beforeAll: read it inside a hook or a test");
    return started;
  };
  return {
    get app() {
      return current().app;
    },
    get db() {
      return current().db;
    },
    get handle() {
      return current().handle;
    },
    close: () => current().close(),
  };
}

/**
 * Two server processes on one database, sharing a clock, set up and closed with the file
 * (on PGlite both apps share the one embedded database). Read `one` and `two` inside tests.
 */
export function twoServersPerFile(clock: TestClock): { one: TestContext; two: TestContext } {
  const servers = {} as { one: TestContext; two: TestContext };
  beforeAll(async () => {
    servers.one = await startTestApp({ clock });
    servers.two = await startTestApp({ clock, joining: servers.one.handle });
  });
  afterAll(async () => {
    await servers.two.close();
    await servers.one.close();
  });
  return servers;
}

export function testImage(format: "png" | "jpeg" = "png", size = 64): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: "#3b82f6" } })
    .toFormat(format)
    .toBuffer();
}

/** A multipart body as a browser would send it. */
export interface UploadFile {
  bytes: Buffer;
  filename: string;
  type: string;
}

/** A multipart body: a field's value is a text, a file, or several files under the one name. */
export async function multipart(fields: Record<string, string | UploadFile | UploadFile[]>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") form.append(name, value);
    else
      for (const file of Array.isArray(value) ? value : [value])
        form.append(name, new Blob([file.bytes], { type: file.type }), file.filename);
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { "content-type": encoded.headers.get("content-type") ?? "" },
  };
}

/** The Cookie header that carries the session a response set. */
/** The session cookies an answer set (not the device cookie every first answer sets). */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookies = response.cookies.filter((cookie) => cookie.value && cookie.name !== DEVICE_COOKIE);
  expect(cookies.length).toBeGreaterThan(0);
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

let sequence = 0;

export interface RegisteredUser {
  user: User;
  cookie: string;
  email: string;
  password: string;
}

export async function registerUser(
  app: App,
  role: SelfRegisterRole,
  /** `unverified`: leave the address unconfirmed (rule R28); other tests start confirmed. */
  overrides: { name?: string; email?: string; unverified?: boolean } = {},
): Promise<RegisteredUser> {
  sequence += 1;
  const email = overrides.email ?? `${role}${sequence}-${Date.now()}@example.com`;
  const password = "Secret12";
  const body = await multipart({
    name: overrides.name ?? `Test ${role} ${sequence}`,
    role,
    email,
    password,
    photo: { bytes: await testImage(), filename: "me.png", type: "image/png" },
  });
  const response = await app.inject({ method: "POST", url: "/api/register", ...body });
  expect(response.statusCode, response.body).toBe(201);
  const user = response.json<{ user: User }>().user;
  if (!overrides.unverified) {
    await markEmailVerified(app.db, user.id);
    user.email_verified = true;
  }
  return { user, cookie: sessionCookie(response), email, password };
}

/** A worker with `coins` in their wallet (10 from signing up, the rest through the ledger's own transfer). */
export async function workerWithCoins(ctx: TestContext, coins: number, overrides: { name?: string } = {}) {
  const worker = await registerUser(ctx.app, "worker", overrides);
  if (coins > 10) await mintTo(ctx, worker, coins - 10);
  return worker;
}

const mintTo = (ctx: TestContext, user: RegisteredUser, coins: number) =>
  transfer(ctx.db, {
    from: MINT,
    to: walletOf(user.user.id),
    amount: coins,
    idempotencyKey: `test-mint:${user.user.id}`,
  });

/** A buyer with `coins` in their wallet and an API key (decision 033) made with their session. */
export async function buyerWithKey(ctx: TestContext, coins: number, keyName = "script") {
  const buyer = await registerUser(ctx.app, "buyer");
  if (coins > 0) await mintTo(ctx, buyer, coins);
  const created = await ctx.app.inject({
    method: "POST",
    url: "/api/buyer/api-keys",
    headers: { cookie: buyer.cookie },
    payload: { name: keyName },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { ...buyer, key: created.json<CreatedApiKey>().key };
}

export type BuyerWithKey = Awaited<ReturnType<typeof buyerWithKey>>;

/** A program's task (photos to label) as its form's fields, due on `completionDate`. */
export const labellingTaskFields = (completionDate: string) => ({
  task_title: "Label 10 photos",
  task_detail: "Label each photo with what it shows.",
  required_workers: "2",
  payable_amount: "5",
  completion_date: completionDate,
  submission_info: "The labels, one a line",
});

export async function signIn(app: App, email: string, password: string) {
  return app.inject({ method: "POST", url: "/api/auth/sign-in/email", payload: { email, password } });
}

export const ADMIN_PASSWORD = "Admin123";

/** The TOTP secret of each user a test turned two-factor on for, by user id, to sign them in again. */
const totpSecrets = new Map<string, string>();

/**
 * Turns two-factor sign-in on for the user of `cookie` the way the Security section does
 * (password, then a code from the app): answers the new session cookie (turning it on
 * replaces the session), the TOTP secret and the backup codes.
 */
export async function turnOnTwoFactor(app: App, user: { id: string; cookie: string; password: string }) {
  const enable = await app.inject({
    method: "POST",
    url: "/api/auth/two-factor/enable",
    headers: { cookie: user.cookie },
    payload: { password: user.password },
  });
  expect(enable.statusCode, enable.body).toBe(200);
  const { totpURI, backupCodes } = enable.json<{ totpURI: string; backupCodes: string[] }>();
  const secret = totpSecretOf(totpURI);
  const verify = await app.inject({
    method: "POST",
    url: "/api/auth/two-factor/verify-totp",
    headers: { cookie: user.cookie },
    payload: { code: await freshTotpCode(secret) },
  });
  expect(verify.statusCode, verify.body).toBe(200);
  totpSecrets.set(user.id, secret);
  return { cookie: sessionCookie(verify), secret, backupCodes };
}

/** Signs in with the password and, when the answer asks for it, a TOTP code: the session cookie. */
export async function signInWithTwoFactor(app: App, user: { id: string; email: string; password: string }) {
  const first = await signIn(app, user.email, user.password);
  expect(first.statusCode, first.body).toBe(200);
  if (!first.json<{ twoFactorRedirect?: boolean }>().twoFactorRedirect) return sessionCookie(first);
  const secret = totpSecrets.get(user.id);
  if (!secret) throw new Error(`${user.email} has two-factor on, with a secret this test run did not make`);
  // Each time step is accepted once (rule R30, tested in second-factor.test.ts): signing one admin
  // in for each test would wait for the next step. A fixture's sign-in is not what a test checks,
  // so the account's last accepted step is forgotten first.
  await app.db.update(twoFactors).set({ lastTotpStep: null }).where(eq(twoFactors.userId, user.id));
  const second = await app.inject({
    method: "POST",
    url: "/api/auth/two-factor/verify-totp",
    headers: { cookie: sessionCookie(first) },
    payload: { code: currentTotpCode(secret) },
  });
  expect(second.statusCode, second.body).toBe(200);
  return sessionCookie(second);
}

/**
 * An admin with this email (made if missing), signed in: its id and session cookie. The admin
 * has two-factor sign-in on unless `twoFactor` is false (decision 018: deciding withdrawals
 * and changing roles need it).
 */
export async function signInAdmin(
  ctx: TestContext,
  email: string,
  { twoFactor = true }: { twoFactor?: boolean } = {},
): Promise<{ id: string; cookie: string; totpSecret: string | null }> {
  const { userId } = await ensureAdmin(ctx.db, { email, password: ADMIN_PASSWORD });
  const admin = { id: userId, email, password: ADMIN_PASSWORD };
  const cookie = await signInWithTwoFactor(ctx.app, admin);
  if (!twoFactor || totpSecrets.has(userId))
    return { id: userId, cookie, totpSecret: totpSecrets.get(userId) ?? null };
  const enrolled = await turnOnTwoFactor(ctx.app, { ...admin, cookie });
  return { id: userId, cookie: enrolled.cookie, totpSecret: enrolled.secret };
}

/** An admin's role change: an action that changes access, so it needs a second factor (rule R30). */
export const changeRole = (app: App, cookie: string, userId: string, role: "worker" | "buyer") =>
  app.inject({ method: "PATCH", url: `/api/admin/users/${userId}`, headers: { cookie }, payload: { role } });

export interface TaskInput {
  task_title?: string;
  task_detail?: string;
  required_workers?: number | string;
  payable_amount?: number | string;
  completion_date?: string;
  submission_info?: string;
  category?: string;
  estimated_minutes?: number | string;
  time_limit_minutes?: number | string;
  proof_images?: number | string;
  min_approval_rate?: number | string;
  min_level?: string;
}

/** POST /api/tasks as a browser sends it; answers the raw response. */
export async function postTask(app: App, cookie: string, input: TaskInput = {}, image?: Buffer | null) {
  const fields: Record<string, string | { bytes: Buffer; filename: string; type: string }> = {
    task_title: "Watch a video",
    task_detail: "Watch the whole video and leave a comment.",
    required_workers: "2",
    payable_amount: "5",
    completion_date: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    submission_info: "A screenshot link",
  };
  for (const [name, value] of Object.entries(input)) fields[name] = String(value);
  if (image !== null)
    fields.task_image = { bytes: image ?? (await testImage()), filename: "task.png", type: "image/png" };
  const body = await multipart(fields);
  return app.inject({
    method: "POST",
    url: "/api/tasks",
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The requests a marketplace test makes on its file's app (`app` is read when a request is
 * made: the app starts in beforeAll), with dates on the file's clock.
 */
export function marketplaceCalls(app: () => App, clock: TestClock) {
  const call = (
    method: Method,
    url: string,
    cookie?: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    app().inject({
      method,
      url,
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
      ...(payload ? { payload } : {}),
    });
  const days = (n: number) => new Date(clock.now().getTime() + n * 86_400_000).toISOString().slice(0, 10);
  /** A task by this buyer, due in a week unless `input` says otherwise; the test fails if it is refused. */
  const newTask = async (buyer: RegisteredUser, input: TaskInput = {}): Promise<Task> => {
    const response = await postTask(app(), buyer.cookie, { completion_date: days(7), ...input });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Task>();
  };
  const submit = (worker: RegisteredUser, taskId: string, details = "Done: https://example.com/proof") =>
    call("POST", `/api/tasks/${taskId}/submissions`, worker.cookie, { submission_details: details });
  return {
    call,
    days,
    newTask,
    submit,
    /** A new buyer's new task (`input` as for newTask) and a new worker's pending submission to it. */
    pendingSubmission: async (input: TaskInput = {}) => {
      const buyer = await registerUser(app(), "buyer");
      const task = await newTask(buyer, input);
      const worker = await registerUser(app(), "worker");
      const response = await submit(worker, task.id);
      expect(response.statusCode, response.body).toBe(201);
      return { buyer, task, worker, submission: response.json<Submission>() };
    },
    /** The buyer buys a coin package with the sandbox's test card; the test fails if it is refused. */
    buyCoins: async (buyer: RegisteredUser, packageId: string) => {
      const started = await call("POST", "/api/payments", buyer.cookie, { package_id: packageId });
      const { payment } = started.json<{ payment: { id: string } }>();
      const card = { card_number: "4242424242424242", exp_month: 12, exp_year: 2099, cvc: "123" };
      const paid = await call("POST", `/api/payments/${payment.id}/sandbox-confirm`, buyer.cookie, card);
      expect(paid.statusCode, paid.body).toBe(200);
    },
    coinsOf: async (who: RegisteredUser) =>
      (await call("GET", "/api/me", who.cookie)).json<{ user: User }>().user.coins,
  };
}

/** A statement's promise: each balance after is the older entry's plus the amount, from 0 up to `balance`. */
export function expectChained(entries: StatementEntry[], balance: number) {
  expect(entries[0]?.balance_after ?? 0).toBe(balance);
  entries.forEach((entry, index) => {
    const older = entries[index + 1]?.balance_after ?? 0;
    expect(entry.balance_after - entry.amount, `entry ${entry.id} (${entry.kind})`).toBe(older);
  });
}

/** Every page of the user's statement, newest first, as a client pages through it `limit` at a time. */
export async function statementPages(app: App, cookie: string, limit: number) {
  const pages: CursorPage<StatementEntry>[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/api/me/statement?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const response: LightMyRequestResponse = await app.inject({ method: "GET", url, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    const page: CursorPage<StatementEntry> = response.json();
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

/** A test file's app on its own test clock, and the marketplace's calls against it. */
export function marketplaceTestFile(options: Omit<TestAppOptions, "clock"> = {}) {
  const clock = new TestClock();
  const ctx = testAppPerFile({ ...options, clock });
  return { clock, ctx, ...marketplaceCalls(() => ctx.app, clock) };
}

/** A notification for the user, as a service records one: kind "other" to the dashboard unless given. */
export const notifyUser = (
  ctx: { db: Database },
  userId: string,
  message: string,
  more: Partial<Pick<Parameters<typeof notify>[1], "actionRoute" | "kind">> = {},
) => notify(ctx.db, { userId, message, actionRoute: "/dashboard", kind: "other", ...more });
