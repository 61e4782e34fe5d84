import { createHmac, randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyMultipart from "@fastify/multipart";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyServerOptions } from "fastify";
import helmet from "helmet";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { BRAND } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import type { DbHandle } from "./db/client.ts";
import type { Env } from "./env.ts";
import { adminRoutes } from "./modules/admin/routes.ts";
import { apiKeyRoutes } from "./modules/api-keys/routes.ts";
import { createApiKeyReader } from "./modules/api-keys/service.ts";
import { appealRoutes } from "./modules/appeals/routes.ts";
import { BackgroundWork } from "./lib/background.ts";
import { limitJsonDepth } from "./lib/json-body.ts";
import { databaseRateLimitStore } from "./lib/rate-limit-store.ts";
import { jobRunner } from "./lib/job-queue.ts";
import { createMailer, MAIL_JOB, type Mail, mailJob, queueMail } from "./lib/mailer.ts";
import { startJobWorker } from "./jobs/runner.ts";
import { NOTIFICATION_MAIL_JOB, notificationMailJob } from "./modules/notifications/mail.ts";
import { createAuth } from "./modules/auth/auth.ts";
import { passwordRoutes } from "./modules/auth/password-routes.ts";
import { registerRoutes } from "./modules/auth/register-routes.ts";
import { authRoutes } from "./modules/auth/routes.ts";
import { twoFactorRoutes } from "./modules/auth/two-factor-routes.ts";
import { batchRoutes } from "./modules/batches/routes.ts";
import { bonusRoutes } from "./modules/bonuses/routes.ts";
import { healthRoutes } from "./modules/health/routes.ts";
import { ledgerRoutes } from "./modules/ledger/routes.ts";
import { uploadRoutes } from "./modules/uploads/routes.ts";
import { pushRoutes } from "./modules/push/routes.ts";
import { loadVapid, PUSH_JOB, PUSH_RETRY_JOB, pushJob, pushRetryJob } from "./modules/push/service.ts";
import { webhookRoutes } from "./modules/webhooks/routes.ts";
import { WEBHOOK_JOB, webhookJob } from "./modules/webhooks/service.ts";
import { TASKS_POSTED_JOB } from "./core/tasks-posted.ts";
import { savedSearchRoutes } from "./modules/saved-searches/routes.ts";
import {
  SAVED_SEARCH_DIGEST_JOB,
  savedSearchAlertsJob,
  savedSearchDigestJob,
} from "./modules/saved-searches/service.ts";
import { NotificationHub } from "./modules/notifications/hub.ts";
import { notificationRoutes } from "./modules/notifications/routes.ts";
import {
  createPaymentProvider,
  type SandboxProvider,
  type StripeProvider,
} from "./modules/payments/providers.ts";
import { paymentRoutes } from "./modules/payments/routes.ts";
import { sessionRoutes } from "./modules/sessions/routes.ts";
import { statsRoutes } from "./modules/stats/routes.ts";
import { reservationRoutes } from "./modules/reservations/routes.ts";
import { submissionRoutes } from "./modules/submissions/routes.ts";
import { createSessionReader } from "./modules/auth/session-reader.ts";
import { createCommonSearches } from "./modules/tasks/common-searches.ts";
import { createFirstPageCache } from "./modules/tasks/first-page-cache.ts";
import { taskRoutes } from "./modules/tasks/routes.ts";
import { listPublicTasksJson } from "./modules/tasks/lists.ts";
import type { TaskAudience } from "./modules/tasks/views.ts";
import {
  createTaskListPage,
  loadWebRenderer,
  pageEncoding,
  type WebRenderer,
} from "./modules/tasks/task-list-page.ts";
import { trustRoutes } from "./modules/trust/routes.ts";
import { userRoutes } from "./modules/users/routes.ts";
import { createSightingRecorder, deviceIdOf } from "./modules/users/sightings.ts";
import { withdrawalRoutes } from "./modules/withdrawals/routes.ts";
import { describeApi } from "./openapi.ts";
import { apiKeyCredentials, authenticateApiKeys } from "./plugins/api-key-auth.ts";
import { sessionUser } from "./plugins/auth-guard.ts";
import { registerErrorHandling, sendError } from "./plugins/errors.ts";
import { refuseNonCanonicalPaths } from "./plugins/canonical-path.ts";
import { refuseCrossOriginMutations } from "./plugins/origin-check.ts";

export interface AppDeps {
  env: Env;
  database: DbHandle;
  /** Signs session cookies. */
  authSecret: string;
  logger?: FastifyServerOptions["logger"];
  /** The built web app to serve; defaults to apps/web/dist when it exists. */
  webDist?: string | null;
  /** What time it is; tests move it to exercise auto-approval and expiry. */
  clock?: () => Date;
  /**
   * Renders All Tasks with its first page of tasks (decision 020); defaults to the web build's
   * server-side bundle beside webDist (apps/web/dist-ssr) when there is one. Null: the
   * prerendered page only.
   */
  webRenderer?: WebRenderer | null;
}

const defaultWebDist = fileURLToPath(new URL("../../web/dist", import.meta.url));
const ssrDistOf = (webDist: string) => path.join(webDist, "../dist-ssr");

/**
 * The public pages the web build prerendered (scripts/prerender.mjs writes `/` to
 * prerendered/index.html and `/allTask` to prerendered/allTask.html), by path.
 */
function prerenderedPages(webDist: string): Map<string, string> {
  const folder = `${webDist}/prerendered`;
  if (!existsSync(folder)) return new Map();
  return new Map(
    readdirSync(folder)
      .filter((file) => file.endsWith(".html"))
      .map((file) => [
        file === "index.html" ? "/" : `/${file.slice(0, -".html".length)}`,
        `prerendered/${file}`,
      ]),
  );
}

export async function buildApp(deps: AppDeps) {
  const { env, database } = deps;
  const db = database.db;
  const app = Fastify({
    logger: deps.logger ?? { level: env.LOG_LEVEL },
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    // Event streams stay open: closing the server must end them, not wait for them.
    forceCloseConnections: true,
    // Errors the router raises before any route runs (bad URL encoding, overlong parameters).
    frameworkErrors: (error, _request, reply) => {
      void sendError(reply, "VALIDATION", error.message);
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("env", env);
  app.decorate("db", db);
  app.decorate("unhurriedDb", database.unhurried);
  app.decorate("clock", deps.clock ?? (() => new Date()));
  app.decorate<SandboxProvider | StripeProvider>("payments", await createPaymentProvider(env));
  const sendMail = createMailer(env, app.log);
  const queueAuthMail = (mail: Mail) => queueMail(db, mail, app.clock());
  app.decorate(
    "auth",
    createAuth({ env, db, secret: deps.authSecret, queueMail: queueAuthMail, log: app.log }),
  );
  const mailSigningKey = createHmac("sha256", deps.authSecret).update("mail links").digest("base64url");
  app.decorate("mailSigningKey", mailSigningKey);
  // Decision 034: every server runs the due jobs; closing the app waits for a run in progress.
  // On connections of their own (DbHandle.unhurried): jobs never take a request's connection.
  const jobsDb = database.unhurried;
  const production = env.NODE_ENV === "production";
  // Made and kept on the first start when the environment names none (decision 038).
  const vapid = await loadVapid(db, env, app.clock());
  const pushJobOptions = { db: jobsDb, vapid, production, log: app.log };
  const runJobs = jobRunner({
    db: jobsDb,
    clock: app.clock,
    log: app.log,
    handlers: {
      [MAIL_JOB]: mailJob(sendMail),
      [NOTIFICATION_MAIL_JOB]: notificationMailJob({
        db: jobsDb,
        sendMail,
        publicUrl: env.PUBLIC_URL,
        signingKey: mailSigningKey,
      }),
      [WEBHOOK_JOB]: webhookJob({ db: jobsDb, production }),
      [PUSH_JOB]: pushJob(pushJobOptions),
      [PUSH_RETRY_JOB]: pushRetryJob(pushJobOptions),
      [TASKS_POSTED_JOB]: savedSearchAlertsJob(jobsDb),
      [SAVED_SEARCH_DIGEST_JOB]: savedSearchDigestJob({ db: jobsDb, sendMail, publicUrl: env.PUBLIC_URL }),
    },
  });
  app.decorate("runJobs", runJobs);
  if (env.JOB_POLL_MS > 0) {
    let worker: Awaited<ReturnType<typeof startJobWorker>> | undefined;
    app.addHook("onReady", async () => {
      worker = await startJobWorker({
        runJobs,
        log: app.log,
        intervalMs: env.JOB_POLL_MS,
        listen: (channel, wake) => database.listen({ [channel]: wake }, wake),
      });
    });
    app.addHook("onClose", () => worker?.stop());
  }
  app.decorate("readSession", createSessionReader(db, deps.authSecret));
  app.decorate("readApiKey", createApiKeyReader(db));
  app.decorateRequest("sessionUser", undefined);
  // The app's clock as handlers read it: tests set it, production reads the system's.
  app.decorateRequest("now", {
    getter() {
      return app.clock();
    },
  });
  app.decorateRequest("apiKey", undefined);
  app.decorateRequest("deviceId", undefined);
  app.decorate("recordSighting", createSightingRecorder(db));
  const secureCookies = env.PUBLIC_URL.startsWith("https:");
  app.addHook("onRequest", async (request, reply) => {
    // A program's key request is no browser's: it gets no device cookie.
    if (request.url.startsWith("/api/") && apiKeyCredentials(request) === null)
      request.deviceId = deviceIdOf(request, reply, secureCookies);
  });
  const hub = new NotificationHub(database, app.log);
  app.decorate("notificationHub", hub);
  app.addHook("onReady", () => hub.start());
  app.addHook("onClose", () => hub.stop());
  const background = new BackgroundWork(app.log);
  app.decorate("background", background);
  app.addHook("onClose", () => background.drain());
  const publicTaskPages = createFirstPageCache();
  app.decorate("publicTaskPages", publicTaskPages);
  app.decorate("commonSearches", createCommonSearches());
  app.addHook("onSend", async (request, reply) => {
    void reply.header("x-request-id", request.id);
    // Any write that succeeded may have changed the public list: its writer sees it next read.
    if (request.method !== "GET" && request.method !== "HEAD" && reply.statusCode < 400)
      publicTaskPages.changed();
  });
  registerErrorHandling(app);
  refuseNonCanonicalPaths(app);
  limitJsonDepth(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: `${BRAND} API`,
        version: "1.0.0",
        description: "The HTTP contract of the TaskMint marketplace.",
      },
      servers: [{ url: env.PUBLIC_URL, description: "This server" }],
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => {
      if (!("openapiObject" in document)) throw new Error("The app describes itself in OpenAPI 3");
      return describeApi(document.openapiObject, env.PUBLIC_URL);
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: paths.apiDocs, staticCSP: true });
  app.get("/api/openapi.json", { schema: { hide: true } }, () => app.swagger());

  await app.register(fastifyMultipart);
  const sharedRateLimits =
    (env.RATE_LIMIT_STORE ?? (database.kind === "postgres" ? "database" : "memory")) === "database";
  await app.register(fastifyRateLimit, {
    global: false,
    ...(sharedRateLimits ? { store: databaseRateLimitStore(db) } : {}),
  });
  const authRateLimit =
    env.AUTH_RATE_LIMIT > 0 ? { max: env.AUTH_RATE_LIMIT, timeWindow: "1 minute" } : false;

  // Stripe's card form is Stripe's own script and frames; allowed only when Stripe is the provider.
  const stripe = env.PAYMENT_PROVIDER === "stripe";
  // Everything but the API browser gets the strict security headers.
  await app.register(async (site) => {
    // Built once: @fastify/helmet builds the middleware (and parses the policy) on every request.
    const setSecurityHeaders = helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...(stripe ? ["https://js.stripe.com"] : [])],
          frameSrc: stripe ? ["https://js.stripe.com", "https://hooks.stripe.com"] : ["'none'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:", "blob:"],
          connectSrc: ["'self'", ...(stripe ? ["https://api.stripe.com"] : [])],
          fontSrc: ["'self'", "data:"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: env.NODE_ENV === "production" ? [] : null,
        },
      },
    });
    site.addHook("onRequest", (request, reply, done) =>
      setSecurityHeaders(request.raw, reply.raw, (error?: unknown) =>
        done(error instanceof Error ? error : undefined),
      ),
    );
    refuseCrossOriginMutations(site, env);
    authenticateApiKeys(site);
    await site.register(healthRoutes);
    await site.register(authRoutes, { rateLimit: authRateLimit });
    await site.register(twoFactorRoutes, { rateLimit: authRateLimit });
    await site.register(registerRoutes, { rateLimit: authRateLimit });
    await site.register(userRoutes);
    await site.register(passwordRoutes, { rateLimit: authRateLimit });
    await site.register(sessionRoutes);
    await site.register(ledgerRoutes);
    await site.register(uploadRoutes);
    await site.register(taskRoutes);
    await site.register(batchRoutes);
    await site.register(submissionRoutes);
    await site.register(reservationRoutes);
    await site.register(trustRoutes);
    await site.register(appealRoutes);
    await site.register(bonusRoutes);
    await site.register(apiKeyRoutes);
    await site.register(webhookRoutes);
    await site.register(pushRoutes, { vapid });
    await site.register(statsRoutes);
    await site.register(withdrawalRoutes);
    await site.register(paymentRoutes);
    await site.register(adminRoutes);
    await site.register(notificationRoutes);
    await site.register(savedSearchRoutes);

    const webDist =
      deps.webDist === undefined ? (existsSync(defaultWebDist) ? defaultWebDist : null) : deps.webDist;
    if (webDist) {
      // The build writes .br and .gz copies of the text assets (scripts/precompress.mjs).
      await site.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        maxAge: "1h",
        preCompressed: true,
      });
      // The service worker is asked for on every visit: a new build is found at once, and
      // the user is offered it (decision 039). The manifest's type comes from its extension.
      site.addHook("onSend", async (request, reply) => {
        if (request.url === "/sw.js") void reply.header("Cache-Control", "no-cache");
      });
    }
    const prerendered = webDist ? prerenderedPages(webDist) : new Map<string, string>();
    const webRenderer =
      deps.webRenderer === undefined
        ? webDist
          ? // A broken server-side bundle costs the rendered page, not the server.
            await loadWebRenderer(ssrDistOf(webDist), paths.allTasks).catch((error: unknown) => {
              app.log.error(
                { err: error },
                "the web app's server-side bundle did not load: All Tasks is prerendered",
              );
              return null;
            })
          : null
        : deps.webRenderer;
    const taskListPage =
      webRenderer &&
      createTaskListPage({
        renderer: webRenderer,
        pagePath: paths.allTasks,
        firstPageJson: (query, audience) =>
          listPublicTasksJson(app.db, {
            query,
            now: app.clock(),
            audience,
            firstPages: publicTaskPages,
            commonSearches: app.commonSearches,
          }),
        log: app.log,
      });
    site.setNotFoundHandler(async (request, reply) => {
      const wantsPage =
        request.method === "GET" && !request.url.startsWith("/api/") && !request.url.startsWith("/uploads/");
      // All Tasks is rendered with its first page of tasks; without the data or the render in
      // time, it is the prerendered page below (never an error).
      if (webDist && wantsPage && request.url === paths.allTasks && taskListPage) {
        let audience: TaskAudience = "visitor";
        const rendered = await taskListPage(async () => {
          audience = (await sessionUser(request)) ? "signed-in" : "visitor";
          return audience;
        });
        if (rendered) {
          const encoding = pageEncoding(request.headers["accept-encoding"]);
          void reply
            .header("Cache-Control", audience === "visitor" ? "no-cache" : "private, no-cache")
            .header("Vary", "Accept-Encoding, Cookie")
            .type("text/html; charset=utf-8");
          if (encoding) void reply.header("Content-Encoding", encoding);
          return reply.send(encoding ? rendered[encoding] : rendered.html);
        }
      }
      // The web app routes on the client: every page address answers with its shell, or with the
      // page's own markup where the build prerendered it (painted before the app's script runs).
      // Prerendered markup is the page without a query: a search address gets the shell.
      if (webDist && wantsPage) {
        const page = prerendered.get(request.url) ?? "index.html";
        return reply.header("Cache-Control", "no-cache").sendFile(page);
      }
      return sendError(reply, "NOT_FOUND", `No route for ${request.method} ${request.url.split("?")[0]}`);
    });
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
