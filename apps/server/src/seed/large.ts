import { DAY_MS } from "@taskmint/shared";
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { escrowKeySql, MINT, walletKeySql } from "../modules/ledger/service.ts";

export interface LargeSeedSize {
  tasks: number;
  users: number;
  /** Pending submissions, spread over the tasks (each takes a slot). */
  submissions: number;
}

/**
 * Fills the database in bulk SQL for benchmarks: users (one in five a buyer), tasks
 * funded into escrow, and pending submissions that took slots. Coins move as ledger
 * transfers with idempotency keys, and cached balances are recomputed from them, so
 * `npm run ledger:check` passes afterwards.
 */
/** A version-4-shaped UUID derived from a text, so ids stay predictable inside one statement and pass the API's checks. */
const uuidFrom = (text: SQL) =>
  sql`overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid::text`;

export async function seedLarge(db: Database, size: LargeSeedSize, now: Date): Promise<void> {
  const batch = `seed${now.getTime()}`;
  const due = new Date(now.getTime() + 30 * DAY_MS).toISOString().slice(0, 10);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into users (id, name, email, role, created_at, updated_at)
      select ${batch} || '-u' || i, 'Seed user ' || i, ${batch} || '-' || i || '@seed.test',
             case when i % 5 = 0 then 'buyer' else 'worker' end, ${now}, ${now}
      from generate_series(1, ${size.users}) as i`);
    await tx.execute(sql`
      insert into ledger_accounts (kind, owner_key, user_id)
      select 'wallet', ${walletKeySql(sql`id`)}, id from users where id like ${`${batch}-u%`}`);
    // Tasks go round-robin to the buyers (every fifth user). Titles draw on a small vocabulary,
    // so each verb is in a tenth of them (a common search word); fifty tasks at any size name
    // "zanzibar" (a rare one, a full page of matches at 10,000 tasks as at a million, so the two
    // compare like with like). The words do not follow i mod 10, as the slots do: the
    // submissions below fill the tasks with one or two slots. Categories, estimates and due dates vary for the orders.
    await tx.execute(sql`
      insert into tasks (id, buyer_id, task_title, task_detail, submission_info, required_workers, payable_amount,
                         completion_date, task_image_url, created_at, category, estimated_minutes)
      select ${uuidFrom(sql`${batch} || '-t' || i`)}, ${batch} || '-u' || (5 * (1 + (i % greatest(${size.users} / 5, 1)))),
             (array['Review', 'Translate', 'Test', 'Answer', 'Transcribe', 'Tag', 'Rate', 'Share', 'Follow', 'Research'])[1 + (i / 11) % 10]
               || ' ' || (array['a landing page', 'a product video', 'an app', 'a survey', 'a podcast', 'photos',
                                'a restaurant menu', 'a sign-up form', 'our post', 'prices'])[1 + (i / 110) % 10] || ' ' || i,
             'Follow the steps and send the proof.' || case when i % greatest(${size.tasks} / 50, 1) = 5 then ' Mentions zanzibar.' else '' end,
             'A link', 1 + (i % 10), 1 + ((i * 7) % 100), ${due}::date - (i % 30), '/favicon.svg',
             ${now}::timestamptz - (i || ' seconds')::interval,
             (array['data_entry', 'surveys', 'social_media', 'app_testing', 'writing_reviews', 'research', 'transcription', 'other'])[1 + (i / 3) % 8],
             1 + ((i * 13) % 60)
      from generate_series(1, ${size.tasks}) as i`);
    await tx.execute(sql`
      insert into ledger_accounts (kind, owner_key)
      select 'escrow', ${escrowKeySql(sql`id`)} from tasks where buyer_id like ${`${batch}-u%`}`);
    // Pending submissions: the k-th submission goes to task (k mod tasks), by a worker that task has not had yet.
    await tx.execute(sql`
      with picks as (
        select k, ${uuidFrom(sql`${batch} || '-t' || (1 + (k % ${size.tasks}))`)} as task_id,
               ${batch} || '-u' || (1 + (k / ${size.tasks}) * 5 + 1 + ((k % ${size.tasks}) % 3)) as worker_id
        from generate_series(0, ${size.submissions} - 1) as k
      ), ranked as (
        select p.k, p.task_id, p.worker_id, t.buyer_id, t.required_workers,
               row_number() over (partition by p.task_id order by p.k) as place
        from picks p join tasks t on t.id = p.task_id join users w on w.id = p.worker_id and w.role = 'worker'
      )
      insert into submissions (id, task_id, worker_id, buyer_id, submission_details, status, created_at, auto_approve_at)
      select ${uuidFrom(sql`${batch} || '-s' || k`)}, task_id, worker_id, buyer_id, 'Seeded proof', 'pending', ${now}, ${now}::timestamptz + interval '3 days'
      from ranked where place <= required_workers
      on conflict do nothing`);
    // Every funded slot is either open or taken by a pending submission.
    await tx.execute(sql`
      update tasks t set required_workers = t.required_workers - c.taken
      from (select task_id, count(*)::int as taken from submissions where worker_id like ${`${batch}-u%`} group by task_id) c
      where c.task_id = t.id`);
    // Buyers buy exactly what their tasks cost, then fund each task's escrow.
    await tx.execute(sql`
      insert into ledger_transfers (idempotency_key, from_account_id, to_account_id, amount, from_balance_after, to_balance_after, created_at)
      select 'seed-purchase:' || t.buyer_id, (select id from ledger_accounts where owner_key = ${MINT}), w.id,
             sum(t.payable_amount * (t.required_workers + coalesce(s.pending, 0))), 0, 0, ${now}
      from tasks t
      join ledger_accounts w on w.owner_key = ${walletKeySql(sql`t.buyer_id`)}
      left join (select task_id, count(*)::int as pending from submissions group by task_id) s on s.task_id = t.id
      where t.buyer_id like ${`${batch}-u%`}
      group by t.buyer_id, w.id`);
    await tx.execute(sql`
      insert into ledger_transfers (idempotency_key, from_account_id, to_account_id, amount, from_balance_after, to_balance_after, created_at)
      select 'task-fund:' || t.id, w.id, e.id, t.payable_amount * (t.required_workers + coalesce(s.pending, 0)), 0, 0, ${now}
      from tasks t
      join ledger_accounts w on w.owner_key = ${walletKeySql(sql`t.buyer_id`)}
      join ledger_accounts e on e.owner_key = ${escrowKeySql(sql`t.id`)}
      left join (select task_id, count(*)::int as pending from submissions group by task_id) s on s.task_id = t.id
      where t.buyer_id like ${`${batch}-u%`}`);
    await tx.execute(sql`
      update ledger_accounts a set balance = coalesce(incoming.total, 0) - coalesce(outgoing.total, 0)
      from ledger_accounts b
      left join (select to_account_id as id, sum(amount) as total from ledger_transfers group by to_account_id) incoming on incoming.id = b.id
      left join (select from_account_id as id, sum(amount) as total from ledger_transfers group by from_account_id) outgoing on outgoing.id = b.id
      where a.id = b.id`);
    // The bulk inserts above bypass ledger_transfer, which writes each side's balance after.
    await tx.execute(sql`select ledger_rewrite_balances_after()`);
  });
  // Fresh statistics, or the planner guesses from empty tables and sorts whole lists; and no
  // dead rows: the seed updates the tasks it inserted (their slots), and a scan that meets the
  // old versions before autovacuum does reads far more than the live table (a search probe
  // took 166 ms instead of 4 at 1,000,000 tasks).
  await db.execute(sql`vacuum analyze`);
}
