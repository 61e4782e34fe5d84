import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  adminEndpoints,
  ledgerEndpoints,
  statsEndpoints,
  withdrawalsEndpoints,
  type AuditAction,
  type Role,
  type WithdrawalStatus,
} from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import type { KeysetPage } from "../../lib/cursorPages.ts";

const all = ["admin"] as const;
const PAGE_SIZE = 10;

/** What the admin pages show; `all` is what an admin's action invalidates. */
export const adminQueries = {
  all,
  stats: () =>
    queryOptions({ queryKey: [...all, "stats"], queryFn: () => call(statsEndpoints.getAdminStats) }),
  ledger: () =>
    queryOptions({
      queryKey: [...all, "ledger-check"],
      queryFn: () => call(ledgerEndpoints.checkLedger),
    }),
  /** Withdrawals by status ("" for all) and a search of the worker's name or email. */
  withdrawals: (page: number, status: WithdrawalStatus | "", q: string) =>
    queryOptions({
      queryKey: [...all, "withdrawals", page, status, q],
      queryFn: () =>
        call(withdrawalsEndpoints.listWithdrawals, {
          query: { page, limit: PAGE_SIZE, status: status || undefined, q: q || undefined },
        }),
      placeholderData: keepPreviousData,
    }),
  /** `keysetPage` comes from useCursorPages(). */
  users: (keysetPage: KeysetPage, q: string, role: Role | "") =>
    queryOptions({
      queryKey: [...all, "users", keysetPage, q, role],
      queryFn: () =>
        call(adminEndpoints.listUsers, {
          query: { ...keysetPage, limit: PAGE_SIZE, q, role: role || undefined },
        }),
      placeholderData: keepPreviousData,
    }),
  /** Before paying out a user being deleted: their balance, whether they may be paid, the risk (rule R30). */
  payoutReview: (userId: string) =>
    queryOptions({
      queryKey: [...all, "payout-review", userId],
      queryFn: () => call(adminEndpoints.reviewPayoutOnDeletion, { params: { id: userId } }),
    }),
  /** `keysetPage` comes from useCursorPages(). */
  tasks: (keysetPage: KeysetPage) =>
    queryOptions({
      queryKey: [...all, "tasks", keysetPage],
      queryFn: () => call(adminEndpoints.listAllTasks, { query: { ...keysetPage, limit: PAGE_SIZE } }),
      placeholderData: keepPreviousData,
    }),
  audit: (page: number, action: AuditAction | "") =>
    queryOptions({
      queryKey: [...all, "audit", page, action],
      queryFn: () =>
        call(adminEndpoints.listAuditTrail, {
          query: { page, limit: PAGE_SIZE, action: action || undefined },
        }),
      placeholderData: keepPreviousData,
    }),
  dailyActivity: (days: number) =>
    queryOptions({
      queryKey: [...all, "daily", days],
      queryFn: () => call(statsEndpoints.getDailyStats, { query: { days } }),
    }),
};
