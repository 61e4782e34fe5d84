import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { rowsOf } from "./db-errors.ts";

// Issue 38: limits that count across every server on one database. @fastify/rate-limit's own
// store counts in each process's memory, so N servers allowed N times the guesses. This store
// keeps each count in rate_limit_counters (migration 0033, unlogged: a crash forgets counts,
// which only lets a window start afresh), judged by the database's clock, in one statement.

declare module "@fastify/rate-limit" {
  interface CreateRateLimitOptions {
    /**
     * Names a limiter made with `app.createRateLimit`: with a shared store, two limiters whose
     * keys coincide (an email) would otherwise count into one. Route limits are named by their route.
     */
    limitName?: string;
  }
}

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/** What @fastify/rate-limit passes `child`: the limit's options, with the route it guards (none for createRateLimit). */
interface LimitParams {
  limitName?: string;
  routeInfo?: { method?: string | string[]; url?: string };
}

function namespaceOf(params: LimitParams): string {
  if (params.limitName) return `${params.limitName}:`;
  const { method, url } = params.routeInfo ?? {};
  if (method && url) return `${[method].flat().join(",")} ${url}:`;
  // A shared store must not let two unnamed limiters count into one key.
  throw new Error("a rate limit made with createRateLimit needs a limitName when limits are shared");
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** Answers the callback with the statement's one row (`current`, `ttl`), or a clean count when there is none. */
function answer(statement: Promise<unknown>, callback: Callback) {
  statement.then(
    (result) => {
      const [row] = rowsOf<{ current: number; ttl: number }>(result);
      callback(
        null,
        row ? { current: Number(row.current), ttl: Math.max(Number(row.ttl), 0) } : { current: 0, ttl: 0 },
      );
    },
    (error: unknown) => callback(asError(error)),
  );
}

/** A @fastify/rate-limit store over `db`: counts survive across processes and restarts. */
export function databaseRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  class DatabaseStore implements FastifyRateLimitStore {
    /** The limit's name before each key; the plugin makes the store with its options, then a child per limit. */
    private namespace = "";

    incr(key: string, callback: Callback, timeWindow: number) {
      // A window that has ended starts again at 1; otherwise the count grows and the window stays.
      answer(
        db.execute(
          sql`insert into rate_limit_counters as counter (key, count, resets_at)
              values (${this.namespace + key}, 1, now() + ${timeWindow} * interval '1 millisecond')
              on conflict (key) do update set
                count = case when counter.resets_at <= now() then 1 else counter.count + 1 end,
                resets_at = case when counter.resets_at <= now() then excluded.resets_at else counter.resets_at end
              returning count as current, ceil(extract(epoch from (resets_at - now())) * 1000)::int as ttl`,
        ),
        callback,
      );
    }

    read(key: string, callback: Callback) {
      answer(
        db.execute(
          sql`select count as current, ceil(extract(epoch from (resets_at - now())) * 1000)::int as ttl
              from rate_limit_counters where key = ${this.namespace + key} and resets_at > now()`,
        ),
        callback,
      );
    }

    child(params: unknown) {
      const store = new DatabaseStore();
      store.namespace = namespaceOf(params as LimitParams);
      return store;
    }
  }
  return DatabaseStore;
}

/** Forgets the counts whose window ended: the periodic sweep's part for this table. */
export async function deleteEndedRateLimitWindows(db: Database): Promise<number> {
  const [row] = rowsOf<{ deleted: number }>(
    await db.execute(
      sql`with gone as (delete from rate_limit_counters where resets_at <= now() returning 1)
          select count(*)::int as deleted from gone`,
    ),
  );
  return Number(row?.deleted ?? 0);
}
