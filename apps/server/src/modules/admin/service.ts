import { and, eq, ilike, isNull, or, sql } from "drizzle-orm";
import type {
  AdminUser,
  DeleteUserRequest,
  LargePage,
  LargePageQuery,
  PayoutReview,
  Role,
  WithdrawalRisk,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { sessions, submissions, users, withdrawals } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { containsPattern } from "../../lib/like.ts";
import { keysetPage } from "../../lib/paging.ts";
import { balanceOf, lockedBalanceOf, MINT, PAYOUT, transfer, walletOf } from "../ledger/service.ts";
import { rejectSubmission } from "../submissions/service.ts";
import { closeTasksOf } from "../tasks/service.ts";
import { selectUsersWithCoins, toUser } from "../users/service.ts";
import { decideWithdrawal, mayBePaidOut, withdrawalRisk } from "../withdrawals/service.ts";
import { cancelReservationsOf } from "../reservations/service.ts";
import { recordAudit } from "../../core/audit.ts";

const liveUser = (id: string) => and(eq(users.id, id), isNull(users.deletedAt));

/** Users (not deleted) by name, by keyset; searchable by name or email and filterable by role. */
export async function listUsers(
  db: Database,
  filter: { q?: string; role?: Role },
  page: LargePageQuery,
): Promise<LargePage<AdminUser>> {
  const pattern = filter.q ? containsPattern(filter.q) : null;
  const where = and(
    isNull(users.deletedAt),
    filter.role ? eq(users.role, filter.role) : undefined,
    pattern ? or(ilike(users.name, pattern), ilike(users.email, pattern)) : undefined,
  );
  return keysetPage(db, {
    page,
    table: users,
    where,
    order: { key: users.name, id: users.id, kind: "text", direction: "asc" },
    rows: (where, order) =>
      selectUsersWithCoins(db)
        .where(where)
        .orderBy(...order),
    cursorOf: (row) => ({ value: row.name, id: row.id }),
    toItem: toAdminUser,
  });
}

/** Locks every live admin row, so two admins cannot remove each other as the last two. */
async function lockAdmins(db: Database): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), isNull(users.deletedAt)))
    .orderBy(users.id)
    .for("update");
  return rows.map((row) => row.id);
}

const lastAdmin = () => new AppError("CONFLICT", "The last admin cannot be demoted or deleted");

/** Rule R12: any role to any user, never removing the last admin; grants no coins. */
export async function changeRole(
  db: Database,
  change: { adminId: string; userId: string; role: Role },
): Promise<AdminUser> {
  const { adminId, userId, role } = change;
  await db.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const [user] = await tx.select().from(users).where(liveUser(userId)).for("update");
    if (!user) throw notFound("User");
    if (user.role === role) return;
    if (user.role === "admin" && admins.length <= 1) throw lastAdmin();
    await tx
      .update(users)
      .set({ role, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    await recordAudit(tx, {
      actorId: adminId,
      action: "change_role",
      targetType: "user",
      targetId: userId,
      before: { role: user.role },
      after: { role },
    });
  });
  return getAdminUser(db, userId);
}

const toAdminUser = (row: Parameters<typeof toUser>[0]): AdminUser => ({
  ...toUser(row),
  created_at: row.createdAt.toISOString(),
});

async function getAdminUser(db: Database, userId: string): Promise<AdminUser> {
  const [row] = await selectUsersWithCoins(db).where(eq(users.id, userId));
  if (!row) throw notFound("User");
  return toAdminUser(row);
}

/**
 * Rule R12: a soft delete. Sign-in is refused and sessions end at once; the user's
 * open tasks close with their open slots refunded; pending withdrawals go back to
 * the wallet; their pending submissions are rejected (the slot returns to its task, or
 * its coins to the buyer), so no approval pays them later; then the whole wallet is forfeited to the platform or recorded as paid
 * out, as the admin chose (decision 010), so no coin is left where no one can use it.
 * Answers the coins that left the wallet. History stays.
 */
export async function deleteUser(
  db: Database,
  deletion: { adminId: string; userId: string; choice: DeleteUserRequest; now: Date },
): Promise<{ settledCoins: number }> {
  const { adminId, userId, choice, now } = deletion;
  if (adminId === userId) throw new AppError("CONFLICT", "You cannot delete your own account");
  return db.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const [user] = await tx.select().from(users).where(liveUser(userId)).for("update");
    if (!user) throw notFound("User");
    if (user.role === "admin" && admins.length <= 1) throw lastAdmin();
    await tx
      .update(users)
      .set({ deletedAt: now, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    const refunded = await closeTasksOf(tx, userId, now);
    await cancelReservationsOf(tx, userId, now);
    const pending = await tx
      .select({ id: withdrawals.id })
      .from(withdrawals)
      .where(and(eq(withdrawals.workerId, userId), eq(withdrawals.status, "pending")));
    for (const { id } of pending)
      await decideWithdrawal(tx, {
        adminId,
        withdrawalId: id,
        decision: { approve: false, reason: "The account was deleted" },
        now,
      });
    const pendingWork = await tx
      .select({ id: submissions.id, buyerId: submissions.buyerId })
      .from(submissions)
      .where(and(eq(submissions.workerId, userId), eq(submissions.status, "pending")));
    for (const work of pendingWork)
      await rejectSubmission(tx, {
        reviewer: { buyerId: work.buyerId },
        submissionId: work.id,
        reason: "The worker's account was deleted",
        now,
      });
    const settledCoins = await lockedBalanceOf(tx, walletOf(userId));
    const payoutRisk =
      choice.coins === "payout" && settledCoins > 0 ? await reviewPayout(tx, user, choice, now) : null;
    if (settledCoins > 0) {
      await transfer(tx, {
        from: walletOf(userId),
        to: choice.coins === "forfeit" ? MINT : PAYOUT,
        amount: settledCoins,
        idempotencyKey: `account-deleted:${choice.coins}:${userId}`,
      });
    }
    await recordAudit(tx, {
      actorId: adminId,
      action: "delete_user",
      targetType: "user",
      targetId: userId,
      before: { name: user.name, email: user.email, role: user.role },
      after: {
        deleted: true,
        refunded_coins: refunded,
        withdrawals_returned: pending.length,
        submissions_rejected: pendingWork.length,
        coins: choice.coins,
        settled_coins: settledCoins,
        ...(choice.coins === "payout" ? { payout_reference: choice.payout_reference } : {}),
        ...(payoutRisk ? { risk: payoutRisk } : {}),
      },
    });
    return { settledCoins };
  });
}

/**
 * Rule R30: coins paid out on deletion get a withdrawal's review, inside the deletion's
 * transaction (so nothing happens when it refuses): a confirmed address, and a high risk
 * confirmed a second time. Answers the risk, for the audit trail.
 */
async function reviewPayout(
  tx: Database,
  user: { id: string; name: string },
  choice: DeleteUserRequest & { coins: "payout" },
  now: Date,
): Promise<WithdrawalRisk> {
  if (!(await mayBePaidOut(tx, user.id)))
    throw new AppError(
      "EMAIL_NOT_VERIFIED",
      `${user.name} has not confirmed their email address, so their coins cannot be paid out: forfeit them, or ask them to confirm it first`,
    );
  const risk = await withdrawalRisk(tx, { workerId: user.id, createdAt: now });
  if (risk.level === "high" && !choice.confirm_high_risk)
    throw new AppError(
      "RISK_CONFIRMATION_REQUIRED",
      "This payout looks high-risk; confirm again to pay it anyway",
      { risk },
    );
  return risk;
}

/** What an admin reads before paying out a user being deleted (rule R30). */
export async function payoutReview(db: Database, userId: string, now: Date): Promise<PayoutReview> {
  const [user] = await db.select({ id: users.id }).from(users).where(liveUser(userId));
  if (!user) throw notFound("User");
  const [balance, mayBePaid, risk] = await Promise.all([
    balanceOf(db, walletOf(userId)),
    mayBePaidOut(db, userId),
    withdrawalRisk(db, { workerId: userId, createdAt: now }),
  ]);
  return { balance, may_be_paid: mayBePaid, risk };
}

export { listAudit } from "./audit-view.ts";
