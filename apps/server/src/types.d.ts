import type { Database } from "./db/client.ts";
import type { Env } from "./env.ts";
import type { BackgroundWork } from "./lib/background.ts";
import type { JobRunCounts } from "./lib/job-queue.ts";
import type { ApiKeyReader, KeyHolder } from "./modules/api-keys/service.ts";
import type { Auth } from "./modules/auth/auth.ts";
import type { createSessionReader } from "./modules/auth/session-reader.ts";
import type { NotificationHub } from "./modules/notifications/hub.ts";
import type { CommonSearches } from "./modules/tasks/common-searches.ts";
import type { FirstPageCache } from "./modules/tasks/first-page-cache.ts";
import type { SandboxProvider, StripeProvider } from "./modules/payments/providers.ts";
import type { SightingRecorder } from "./modules/users/sightings.ts";
import type { SessionUser } from "./plugins/auth-guard.ts";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
    /** The database for work that is long by design (DbHandle.unhurried): an admin's ledger check. */
    unhurriedDb: Database;
    auth: Auth;
    readSession: ReturnType<typeof createSessionReader>;
    /** The live buyer's key a request presents, or null (decision 033). */
    readApiKey: ApiKeyReader;
    env: Env;
    clock: () => Date;
    payments: SandboxProvider | StripeProvider;
    notificationHub: NotificationHub;
    background: BackgroundWork;
    publicTaskPages: FirstPageCache;
    commonSearches: CommonSearches;
    recordSighting: SightingRecorder;
    /** Signs the links of notification mails (unsubscribe). */
    mailSigningKey: string;
    /** Runs the queue's due jobs (decision 034); every server does it each JOB_POLL_MS. */
    runJobs: () => Promise<JobRunCounts>;
  }
  interface FastifyRequest {
    /** undefined until the session was looked up, then the user or null. */
    sessionUser: SessionUser | null | undefined;
    /** The app's clock, read now (a test's clock in tests). */
    readonly now: Date;
    /** The browser's device cookie (set by this answer when it had none), on /api/ requests. */
    deviceId: string | undefined;
    /** The API key that authenticated this request (decision 033), if one did. */
    apiKey: KeyHolder | undefined;
  }
  interface FastifyContextConfig {
    /** Whether an API key may call the route: its declaration's `keys` (endpoint-route.ts). */
    apiKeys?: boolean;
  }
}
