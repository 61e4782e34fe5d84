import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import {
  BRAND,
  isoDate,
  LEVEL_RULES,
  paths,
  SAVED_SEARCH_FOLD_MINUTES,
  workerLevels,
  type PushPayload,
} from "@taskmint/shared";
import type { TasksPosted } from "../../core/tasks-posted.ts";
import type { Database } from "../../db/client.ts";
import { rowsOf } from "../../lib/db-errors.ts";
import { enqueueJobs, type JobHandler } from "../../lib/job-queue.ts";
import type { SendMail } from "../../lib/mailer.ts";
import { queuePush } from "../push/service.ts";
import { takeable } from "../tasks/service.ts";

// Issue 36 point 4 (decision 037): when tasks are posted, one job finds every saved search they
// match, for workers who can take them, in one query, and gives each search one alert per fold
// window: a bell notification whose text counts the window's matches, a digest mail at the
// window's end, a push that replaces the search's last one on the phone.

const FOLD_MS = SAVED_SEARCH_FOLD_MINUTES * 60_000;

/** The job that mails a fold window's digest when the window ends. */
export const SAVED_SEARCH_DIGEST_JOB = "saved_search_digest";

interface DigestJob {
  alertId: string;
}

/** A worker's level from their decided counts (rule R21, LEVEL_RULES) as SQL. */
const levelSql = (approved: string, rejected: string) =>
  sql.raw(
    `case ${LEVEL_RULES.map(
      (rule) =>
        `when ${approved} + ${rejected} >= ${rule.decided} and ${approved} * 100 >= ${rule.rate} * (${approved} + ${rejected}) then '${rule.level}'`,
    ).join(" ")} else 'new' end`,
  );

interface Match {
  search_id: string;
  worker_id: string;
  name: string;
  q: string | null;
  category: string | null;
  min_reward: number | null;
  alert_bell: boolean;
  alert_mail: boolean;
  alert_push: boolean;
  matched: number;
  task_id: string;
  task_title: string;
}

/**
 * Every saved search that any of the tasks matches, with how many and the first, in one query:
 * the tasks still takeable; the searches' words (their GIN-indexed lexemes share at least one
 * with the task, then the full query decides; a search without such words is found through its
 * category's index, or among those without one), category and least reward; workers (live, still workers) who can take the task:
 * not its buyer, their level and approval rate meet its minimums, its buyer has not blocked
 * them, they have not hidden its buyer (rules R21, R23).
 */
async function findMatches(db: Database, taskIds: string[], now: Date): Promise<Match[]> {
  const rate = "coalesce((r.approved * 100) / nullif(r.approved + r.rejected, 0), 0)";
  const level = levelSql("coalesce(r.approved, 0)", "coalesce(r.rejected, 0)");
  const levels = sql`${sql.param([...workerLevels])}::text[]`;
  return rowsOf<Match>(
    await db.execute(sql`
      with posted as (
        select tasks.id, tasks.buyer_id, tasks.task_title as title, tasks.category, tasks.payable_amount,
          tasks.min_level, tasks.min_approval_rate, tasks.created_at, tasks.search_document,
          tsvector_to_array(tasks.search_document) as words
        from tasks
        where tasks.id = any(${sql.param(taskIds)}::text[]) and ${takeable(isoDate(now))}
      ),
      candidates as (
        select s.id as search_id, p.* from posted p
          join saved_searches s on s.lexemes && p.words and p.search_document @@ s.query
        union all
        select s.id as search_id, p.* from posted p
          join saved_searches s on s.lexemes is null and s.category = p.category
            and (s.min_reward <= p.payable_amount or s.min_reward is null)
            and (s.query is null or p.search_document @@ s.query)
        union all
        select s.id as search_id, p.* from posted p
          join saved_searches s on s.lexemes is null and s.category is null
            and (s.min_reward <= p.payable_amount or s.min_reward is null)
            and (s.query is null or p.search_document @@ s.query)
      ),
      matched as (
        select c.search_id, count(*)::int as matched,
          (array_agg(c.id order by c.created_at, c.id))[1] as task_id,
          (array_agg(c.title order by c.created_at, c.id))[1] as task_title
        from candidates c
        join saved_searches s on s.id = c.search_id
        join users u on u.id = s.worker_id and u.role = 'worker' and u.deleted_at is null
        left join worker_reputations r on r.worker_id = s.worker_id
        where (s.category is null or s.category = c.category)
          and (s.min_reward is null or s.min_reward <= c.payable_amount)
          and s.worker_id <> c.buyer_id
          and c.min_approval_rate <= ${sql.raw(rate)}
          and array_position(${levels}, c.min_level) <= array_position(${levels}, ${level})
          and not exists (select 1 from buyer_blocks b where b.buyer_id = c.buyer_id and b.worker_id = s.worker_id)
          and not exists (select 1 from hidden_buyers h where h.worker_id = s.worker_id and h.buyer_id = c.buyer_id)
        group by c.search_id
      )
      select m.search_id, m.matched, m.task_id, m.task_title, s.worker_id, s.name, s.q, s.category,
        s.min_reward, s.alert_bell, s.alert_mail, s.alert_push
      from matched m join saved_searches s on s.id = m.search_id`),
  );
}

/** What an alert says: the one task, or how many. */
export function alertMessage(search: { name: string }, alert: { matchCount: number; taskTitle: string }) {
  return alert.matchCount === 1
    ? `New task matches "${search.name}": ${alert.taskTitle}`
    : `${alert.matchCount.toLocaleString("en-US")} new tasks match "${search.name}"`;
}

/** Where an alert leads: the one task, or the worker's task list with the search applied. */
export function alertRoute(
  search: { q: string | null; category: string | null; min_reward: number | null },
  alert: { matchCount: number; taskId: string },
) {
  if (alert.matchCount === 1) return paths.dashboard.taskDetails(alert.taskId);
  const query = new URLSearchParams();
  if (search.q) query.set("q", search.q);
  if (search.category) query.set("category", search.category);
  if (search.min_reward) query.set("min_reward", String(search.min_reward));
  const filters = query.toString();
  return filters ? `${paths.dashboard.taskList}?${filters}` : paths.dashboard.taskList;
}

interface OpenWindow {
  saved_search_id: string;
  id: string;
  match_count: number;
  task_id: string;
  task_title: string;
  notification_id: string | null;
}

/**
 * Alerts the saved searches the posted tasks match, in one transaction. A search whose fold
 * window is open adds the matches to it and rewrites its notification (unread again, newest
 * again, announced again); any other starts a window: a notification when it has the bell on,
 * a digest mail due at the window's end when it has mail on. A push goes either way.
 */
export async function alertSavedSearches(db: Database, posted: TasksPosted & { now: Date }) {
  const { taskIds, now } = posted;
  if (taskIds.length === 0) return;
  await db.transaction(async (tx) => {
    const found = await findMatches(tx, taskIds, now);
    if (found.length === 0) return;
    // Each search's alert changes under its lock: two jobs at once do not both open a window. A
    // search deleted since it was found is left out.
    const locked = rowsOf<{ id: string }>(
      await tx.execute(
        sql`select id from saved_searches where id = any(${sql.param(found.map((match) => match.search_id))}::text[]) order by id for update`,
      ),
    );
    const lockedIds = new Set(locked.map((search) => search.id));
    const matches = found.filter((match) => lockedIds.has(match.search_id));
    const searchIds = [...lockedIds];
    const open = rowsOf<OpenWindow>(
      await tx.execute(sql`
        select distinct on (saved_search_id) saved_search_id, id, match_count, task_id, task_title, notification_id
        from saved_search_alerts
        where saved_search_id = any(${sql.param(searchIds)}::text[]) and started_at > ${new Date(now.getTime() - FOLD_MS)}
        order by saved_search_id, started_at desc`),
    );
    const windowOf = new Map(open.map((window) => [window.saved_search_id, window]));
    const folded = matches.flatMap((match) => {
      const window = windowOf.get(match.search_id);
      if (!window) return [];
      const alert = {
        matchCount: window.match_count + match.matched,
        taskId: window.task_id,
        taskTitle: window.task_title,
      };
      return [{ match, window, alert }];
    });
    const started = matches
      .filter((match) => !windowOf.has(match.search_id))
      .map((match) => ({
        match,
        id: randomUUID(),
        alert: { matchCount: match.matched, taskId: match.task_id, taskTitle: match.task_title },
      }));
    if (folded.length > 0) {
      await tx.execute(sql`
        update saved_search_alerts a set match_count = f.match_count
        from unnest(${sql.param(folded.map(({ window }) => window.id))}::text[],
          ${sql.param(folded.map(({ alert }) => alert.matchCount))}::int[]) as f(id, match_count)
        where a.id = f.id`);
      const rewritten = folded.filter(({ window }) => window.notification_id !== null);
      if (rewritten.length > 0)
        await tx.execute(sql`
          with changed as (
            update notifications n set message = f.message, action_route = f.route, read_at = null, created_at = now()
            from unnest(${sql.param(rewritten.map(({ window }) => window.notification_id))}::text[],
              ${sql.param(rewritten.map(({ match, alert }) => alertMessage(match, alert)))}::text[],
              ${sql.param(rewritten.map(({ match, alert }) => alertRoute(match, alert)))}::text[]) as f(id, message, route)
            where n.id = f.id
            returning n.id)
          select pg_notify('notifications', id) from changed`);
    }
    if (started.length > 0) {
      await tx.execute(sql`
        insert into saved_search_alerts (id, saved_search_id, started_at, match_count, task_id, task_title, notification_id)
        select f.id, f.search_id, ${now}, f.match_count, f.task_id, f.task_title,
          case when f.bell then notify_user(f.worker_id, f.message, f.route, 'saved_search_match') end
        from unnest(${sql.param(started.map(({ id }) => id))}::text[],
          ${sql.param(started.map(({ match }) => match.search_id))}::text[],
          ${sql.param(started.map(({ alert }) => alert.matchCount))}::int[],
          ${sql.param(started.map(({ alert }) => alert.taskId))}::text[],
          ${sql.param(started.map(({ alert }) => alert.taskTitle))}::text[],
          ${sql.param(started.map(({ match }) => match.alert_bell))}::boolean[],
          ${sql.param(started.map(({ match }) => match.worker_id))}::text[],
          ${sql.param(started.map(({ match, alert }) => alertMessage(match, alert)))}::text[],
          ${sql.param(started.map(({ match, alert }) => alertRoute(match, alert)))}::text[])
          as f(id, search_id, match_count, task_id, task_title, bell, worker_id, message, route)`);
      const digest: DigestJob[] = started
        .filter(({ match }) => match.alert_mail)
        .map(({ id }) => ({ alertId: id }));
      await enqueueJobs(
        tx,
        digest.map((payload) => ({
          kind: SAVED_SEARCH_DIGEST_JOB,
          payload,
          now,
          runAt: new Date(now.getTime() + FOLD_MS),
        })),
      );
    }
    for (const { match, alert } of [...folded, ...started]) {
      if (!match.alert_push) continue;
      const payload: PushPayload = {
        title: match.name,
        body: alertMessage(match, alert),
        url: alertRoute(match, alert),
        tag: `saved-search:${match.search_id}`,
      };
      await queuePush(tx, { userId: match.worker_id, payload, now });
    }
  });
}

/** The job posting queues (core/tasks-posted.ts): alerts the saved searches the tasks match. */
export function savedSearchAlertsJob(db: Database): JobHandler {
  return {
    retryAfterMs: [60_000, 300_000, 1_800_000],
    run: async (payload, { now }) => alertSavedSearches(db, { ...(payload as TasksPosted), now }),
  };
}

interface DigestRow {
  email: string;
  user_name: string;
  verified: boolean;
  name: string;
  q: string | null;
  category: string | null;
  min_reward: number | null;
  match_count: number;
  task_id: string;
  task_title: string;
}

/**
 * Mails a fold window's digest when the window has ended: what it counted then. Nothing when the
 * search is gone, has mail off by now, or its worker cannot receive mail (unconfirmed address,
 * deleted, no longer a worker). A refused mail is tried again after 1, 5, 30 and 120 minutes.
 */
export function savedSearchDigestJob(delivery: {
  db: Database;
  sendMail: SendMail;
  publicUrl: string;
}): JobHandler {
  const { db, sendMail, publicUrl } = delivery;
  return {
    retryAfterMs: [1, 5, 30, 120].map((minutes) => minutes * 60_000),
    async run(payload) {
      const { alertId } = payload as DigestJob;
      const [row] = rowsOf<DigestRow>(
        await db.execute(sql`
          select u.email, u.name as user_name, u.email_verified as verified, s.name, s.q, s.category,
            s.min_reward, a.match_count, a.task_id, a.task_title
          from saved_search_alerts a
          join saved_searches s on s.id = a.saved_search_id and s.alert_mail
          join users u on u.id = s.worker_id and u.deleted_at is null and u.role = 'worker'
          where a.id = ${alertId}`),
      );
      if (!row?.verified) return;
      const alert = { matchCount: row.match_count, taskId: row.task_id, taskTitle: row.task_title };
      const message = alertMessage(row, alert);
      await sendMail({
        to: row.email,
        subject: `${BRAND}: ${message.length > 90 ? `${message.slice(0, 89)}…` : message}`,
        text: [
          `Hello ${row.user_name},`,
          "",
          message,
          "",
          `Open ${alert.matchCount === 1 ? "it" : "them"} in ${BRAND}: ${publicUrl}${alertRoute(row, alert)}`,
          "",
          "--",
          `You get this mail because mail is on for your saved search "${row.name}".`,
          `Change how you hear of it in your saved searches: ${publicUrl}${paths.dashboard.savedSearches}`,
          "",
        ].join("\n"),
      });
    },
  };
}
