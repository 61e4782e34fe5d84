import path from "node:path";
import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1");

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().min(1).optional());

/**
 * The longest a database statement may run, in ms (PostgreSQL only; 0: no limit). The driver
 * gives up on an unanswered query a second later, so a database that stops answering costs a
 * request about this long, then a 503 (issue 31).
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    DATABASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_STATEMENT_TIMEOUT_MS),
    DATA_DIR: z.string().min(1).default("./data"),
    PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    AUTH_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, "must be at least 32 characters").optional(),
    ),
    ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
    ADMIN_PASSWORD: optionalString,
    SEED_DEMO: z.preprocess(emptyAsUndefined, booleanFlag.optional()),
    AUTH_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
    /**
     * Where rate limits count (issue 38): `database` shares them among every server on the
     * database, `memory` counts in this process. Unset: `database` on PostgreSQL, `memory` on
     * the embedded database (one process holds it anyway).
     */
    RATE_LIMIT_STORE: z.preprocess(emptyAsUndefined, z.enum(["database", "memory"]).optional()),
    AUTO_APPROVE_DAYS: z.coerce.number().int().min(1).default(3),
    PAYMENT_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(["sandbox", "stripe"]).optional()),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Where the Stripe API is; only a local stand-in in tests sets it. */
    STRIPE_API_BASE: z.preprocess(emptyAsUndefined, z.url().optional()),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    /**
     * Unset in production: Google sign-in uses Google's own endpoints. Tests (and a local
     * stand-in) name another OpenID Connect issuer here; its discovery document then
     * supplies the endpoints, behind the same /api/auth routes.
     */
    GOOGLE_ISSUER_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    SMTP_URL: optionalString,
    /** How often each server looks for due jobs (mail, webhooks; decision 034); 0: never by itself (tests run them). */
    JOB_POLL_MS: z.coerce.number().int().min(0).default(1_000),
    MAIL_FROM: z.string().default("TaskMint <no-reply@taskmint.local>"),
    /** Web Push's VAPID key pair, base64url (web-push generate-vapid-keys); unset: made once and kept in the database. */
    VAPID_PUBLIC_KEY: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{87}$/, "must be a P-256 public key, 65 bytes in base64url")
        .optional(),
    ),
    VAPID_PRIVATE_KEY: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{43}$/, "must be a P-256 private key, 32 bytes in base64url")
        .optional(),
    ),
    /** Who push services may contact about our pushes; unset: ADMIN_EMAIL, an https PUBLIC_URL, or MAIL_FROM. */
    VAPID_SUBJECT: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/, "must be a mailto: address or an https: URL")
        .optional(),
    ),
    REPOSITORY_URL: z.url().default("https://github.com/taskmint/taskmint"),
    /** Set by npm to where `npm ...` was typed; relative paths mean relative to it. */
    INIT_CWD: optionalString,
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "is required when NODE_ENV=production",
      });
    }
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: ["ADMIN_PASSWORD"],
        message: "ADMIN_EMAIL and ADMIN_PASSWORD go together",
      });
    }
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: ["GOOGLE_CLIENT_SECRET"],
        message: "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET go together",
      });
    }
    if (env.GOOGLE_ISSUER_URL && !env.GOOGLE_CLIENT_ID) {
      ctx.addIssue({
        code: "custom",
        path: ["GOOGLE_ISSUER_URL"],
        message: "needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET",
      });
    }
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["VAPID_PRIVATE_KEY"],
        message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together",
      });
    }
    if (env.PAYMENT_PROVIDER === "stripe" && !env.STRIPE_SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_SECRET_KEY"],
        message: "is required when PAYMENT_PROVIDER=stripe",
      });
    }
  })
  .transform((env) => ({
    ...env,
    DATA_DIR: path.resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR),
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    PAYMENT_PROVIDER: env.PAYMENT_PROVIDER ?? (env.STRIPE_SECRET_KEY ? "stripe" : "sandbox"),
  }));

export type Env = z.infer<typeof envSchema>;

/** The vite dev server, which proxies /api to us during `npm run dev`. */
const DEV_WEB_ORIGIN = "http://localhost:5173";

/** The origins the app's own pages are served from: PUBLIC_URL's, and the dev server's outside production. */
export const trustedOrigins = (env: Env): string[] =>
  env.NODE_ENV === "production"
    ? [new URL(env.PUBLIC_URL).origin]
    : [new URL(env.PUBLIC_URL).origin, DEV_WEB_ORIGIN];

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
  }
}

/** Reads the configuration; throws one EnvError that lists every bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  return result.data;
}
