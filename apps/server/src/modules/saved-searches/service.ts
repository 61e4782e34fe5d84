import { randomUUID } from "node:crypto";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { createSavedSearchSchema } from "@taskmint/shared";
import {
  categoryName,
  isoDate,
  LARGE_LIST_COUNT_CAP,
  MAX_SAVED_SEARCHES,
  type SavedSearch,
  type UpdateSavedSearch,
} from "@taskmint/shared";
import type { z } from "zod";
import type { Database } from "../../db/client.ts";
import { savedSearches, submissions, tasks, users } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { searchQuerySql, takeable } from "../tasks/service.ts";
import { visibilityValues, visibleToWorkerSql, workerVisibility } from "../trust/service.ts";

// Issue 36 (decision 037): a worker's saved searches. Their alerts, when tasks are posted, are alerts.ts.

export { savedSearchAlertsJob, savedSearchDigestJob, SAVED_SEARCH_DIGEST_JOB } from "./alerts.ts";

type NewSavedSearch = z.output<typeof createSavedSearchSchema>;

/** What a search looks for, as its owner sees it. */
interface SearchTerms {
  q: string | null;
  category: NewSavedSearch["category"] | null;
  minReward: number | null;
}

const NAME_MAX = 60;

const coins = (count: number) => `${count.toLocaleString("en-US")} coin${count === 1 ? "" : "s"}`;

/** A search's name from what it looks for: "review in Data entry, at least 5 coins"; "All tasks" for none. */
export function nameOfSearch({ q, category, minReward }: SearchTerms): string {
  let name = q ?? "";
  if (category) name = name ? `${name} in ${categoryName(category)}` : categoryName(category);
  if (minReward) name = name ? `${name}, at least ${coins(minReward)}` : `At least ${coins(minReward)}`;
  if (!name) return "All tasks";
  const characters = [...name];
  return characters.length > NAME_MAX ? `${characters.slice(0, NAME_MAX - 1).join("")}…` : name;
}

/**
 * Whether a task (the `tasks` table) matches a saved search (`saved_searches`): the task
 * browsers' filters (words, category, least reward) read from the search's columns.
 */
export const matchesSearchSql = sql`(${savedSearches.query} is null or ${tasks.searchDocument} @@ ${savedSearches.query})
  and (${savedSearches.category} is null or ${tasks.category} = ${savedSearches.category})
  and (${savedSearches.minReward} is null or ${tasks.payableAmount} >= ${savedSearches.minReward})`;

/**
 * The search's new matches: tasks its worker can take (rules R21, R23) and has not submitted to,
 * posted since they last looked, up to LARGE_LIST_COUNT_CAP (the list is for a badge, and
 * counting is bounded).
 */
function newMatchesSql(visible: SQL | undefined, now: Date) {
  const matching = and(
    takeable(isoDate(now)),
    visible,
    sql`${tasks.createdAt} > ${savedSearches.lastSeenAt}`,
    sql`${tasks.buyerId} <> ${savedSearches.workerId}`,
    matchesSearchSql,
    sql`not exists (select 1 from ${submissions} where ${submissions.taskId} = ${tasks.id} and ${submissions.workerId} = ${savedSearches.workerId})`,
  );
  return sql<number>`(select count(*)::int from (select 1 from ${tasks} where ${matching} limit ${LARGE_LIST_COUNT_CAP}) as counted)`;
}

const toView = (row: typeof savedSearches.$inferSelect, newMatches: number): SavedSearch => ({
  id: row.id,
  name: row.name,
  q: row.q,
  category: row.category,
  min_reward: row.minReward,
  alert: { bell: row.alertBell, mail: row.alertMail, push: row.alertPush },
  new_matches: newMatches,
  last_seen_at: row.lastSeenAt.toISOString(),
  created_at: row.createdAt.toISOString(),
});

/** The worker's searches that `which` selects, newest first, each with its new matches. */
async function readSearches(db: Database, worker: { workerId: string; now: Date }, which?: SQL) {
  const visible = visibleToWorkerSql(visibilityValues(await workerVisibility(db, worker.workerId)));
  const rows = await db
    .select({ search: savedSearches, newMatches: newMatchesSql(visible, worker.now) })
    .from(savedSearches)
    .where(and(eq(savedSearches.workerId, worker.workerId), which))
    .orderBy(desc(savedSearches.createdAt), desc(savedSearches.id));
  return rows.map((row) => toView(row.search, row.newMatches));
}

async function readSearch(db: Database, search: { workerId: string; id: string; now: Date }) {
  const [found] = await readSearches(db, search, eq(savedSearches.id, search.id));
  if (!found) throw notFound("Saved search");
  return found;
}

/**
 * POST /api/me/saved-searches. The worker's row is locked while their searches are counted, so
 * parallel requests cannot pass MAX_SAVED_SEARCHES.
 */
export async function createSavedSearch(
  db: Database,
  request: { workerId: string; search: NewSavedSearch; now: Date },
): Promise<SavedSearch> {
  const { workerId, search, now } = request;
  const terms: SearchTerms = {
    q: search.q || null,
    category: search.category ?? null,
    minReward: search.min_reward ?? null,
  };
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, workerId)).for("no key update");
    const kept = await tx.$count(savedSearches, eq(savedSearches.workerId, workerId));
    if (kept >= MAX_SAVED_SEARCHES)
      throw new AppError(
        "LIMIT_REACHED",
        `You have ${MAX_SAVED_SEARCHES} saved searches, the most one account may keep: remove one first`,
        { limit: MAX_SAVED_SEARCHES },
      );
    const query = terms.q ? searchQuerySql(terms.q) : null;
    await tx.insert(savedSearches).values({
      id,
      workerId,
      name: search.name || nameOfSearch(terms),
      q: terms.q,
      query,
      // The words' lexemes, unless the query asks for no word a task must contain ("-spam"):
      // querytree() is then 'T' (or empty, for stop words only).
      lexemes: query
        ? sql`case when querytree(${query}) in ('', 'T') then null
            else tsvector_to_array(to_tsvector('english', ${terms.q})) end`
        : null,
      category: terms.category,
      minReward: terms.minReward,
      alertBell: search.alert.bell,
      alertMail: search.alert.mail,
      alertPush: search.alert.push,
      lastSeenAt: now,
      createdAt: now,
    });
  });
  return readSearch(db, { workerId, id, now });
}

/** GET /api/me/saved-searches: newest first, at most MAX_SAVED_SEARCHES. */
export function listSavedSearches(db: Database, worker: { workerId: string; now: Date }) {
  return readSearches(db, worker);
}

/** PATCH /api/me/saved-searches/:id: its name or alert; another worker's is 404. */
export async function updateSavedSearch(
  db: Database,
  request: { workerId: string; id: string; update: UpdateSavedSearch; now: Date },
): Promise<SavedSearch> {
  const { workerId, id, update, now } = request;
  const changed = await db
    .update(savedSearches)
    .set({
      name: update.name,
      alertBell: update.alert?.bell,
      alertMail: update.alert?.mail,
      alertPush: update.alert?.push,
    })
    .where(and(eq(savedSearches.id, id), eq(savedSearches.workerId, workerId)))
    .returning({ id: savedSearches.id });
  if (changed.length === 0) throw notFound("Saved search");
  return readSearch(db, { workerId, id, now });
}

/** POST /api/me/saved-searches/:id/seen: its new matches count from now. */
export async function markSavedSearchSeen(
  db: Database,
  request: { workerId: string; id: string; now: Date },
): Promise<SavedSearch> {
  const { workerId, id, now } = request;
  const changed = await db
    .update(savedSearches)
    .set({ lastSeenAt: now })
    .where(and(eq(savedSearches.id, id), eq(savedSearches.workerId, workerId)))
    .returning({ id: savedSearches.id });
  if (changed.length === 0) throw notFound("Saved search");
  return readSearch(db, { workerId, id, now });
}

/** DELETE /api/me/saved-searches/:id: it alerts no more (its alerts go with it). */
export async function deleteSavedSearch(db: Database, request: { workerId: string; id: string }) {
  const removed = await db
    .delete(savedSearches)
    .where(and(eq(savedSearches.id, request.id), eq(savedSearches.workerId, request.workerId)))
    .returning({ id: savedSearches.id });
  if (removed.length === 0) throw notFound("Saved search");
}
