import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AuditAction, AuditRecord, Page, PageQuery } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { auditLog, submissions, tasks, users, withdrawals } from "../../db/schema/index.ts";
import { newestFirstPage } from "../../lib/paging.ts";

// The audit trail as admins read it: each action with its actor and, resolved in the same
// query by left joins on primary keys, the person, task and amount it was about.

const actors = alias(users, "actors");
/** The person acted on: the user, or the withdrawal's or the submission's worker. */
const subjects = alias(users, "subjects");
const taskBuyers = alias(users, "task_buyers");
const targetWithdrawals = alias(withdrawals, "target_withdrawals");
const targetSubmissions = alias(submissions, "target_submissions");
const targetTasks = alias(tasks, "target_tasks");

const targetIs = (type: (typeof auditLog.$inferSelect)["targetType"]) =>
  sql`case when ${auditLog.targetType} = ${type} then ${auditLog.targetId} end`;

const selectAudit = (db: Database) =>
  db
    .select({
      entry: auditLog,
      actorName: actors.name,
      actorEmail: actors.email,
      userName: subjects.name,
      userDeletedAt: subjects.deletedAt,
      taskTitle: targetTasks.title,
      buyerName: taskBuyers.name,
      coins: targetWithdrawals.coins,
      amountCents: targetWithdrawals.amountCents,
    })
    .from(auditLog)
    .innerJoin(actors, eq(actors.id, auditLog.actorId))
    .leftJoin(
      targetWithdrawals,
      and(eq(auditLog.targetType, "withdrawal"), eq(targetWithdrawals.id, auditLog.targetId)),
    )
    .leftJoin(
      targetSubmissions,
      and(eq(auditLog.targetType, "submission"), eq(targetSubmissions.id, auditLog.targetId)),
    )
    .leftJoin(
      subjects,
      eq(
        subjects.id,
        sql`coalesce(${targetIs("user")}, ${targetWithdrawals.workerId}, ${targetSubmissions.workerId})`,
      ),
    )
    .leftJoin(
      targetTasks,
      eq(targetTasks.id, sql`coalesce(${targetIs("task")}, ${targetSubmissions.taskId})`),
    )
    .leftJoin(taskBuyers, eq(taskBuyers.id, targetTasks.buyerId));

type AuditRow = Awaited<ReturnType<ReturnType<typeof selectAudit>["execute"]>>[number];

const auditView = {
  table: auditLog,
  select: selectAudit,
  toItem: (row: AuditRow): AuditRecord => {
    const { entry } = row;
    // A task deleted before its title was joined still has the title its entry recorded.
    const recordedTitle = entry.before?.task_title;
    return {
      id: entry.id,
      actor_name: row.actorName,
      actor_email: row.actorEmail,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      before: entry.before,
      after: entry.after,
      created_at: entry.createdAt.toISOString(),
      subject: {
        user_name: row.userName,
        user_deleted: row.userDeletedAt !== null,
        task_title: row.taskTitle ?? (typeof recordedTitle === "string" ? recordedTitle : null),
        buyer_name: row.buyerName,
        coins: row.coins,
        amount_cents: row.amountCents,
      },
    };
  },
};

export function listAudit(
  db: Database,
  filter: { action?: AuditAction },
  page: PageQuery,
): Promise<Page<AuditRecord>> {
  return newestFirstPage(db, auditView, filter.action ? eq(auditLog.action, filter.action) : undefined, page);
}
