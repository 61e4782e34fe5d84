import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type {
  AdminStats,
  AdminUser,
  AuditRecord,
  DailyActivity,
  LargePage,
  LedgerReport,
  Page,
  PayoutReview,
  Role,
  Task,
  Withdrawal,
  WithdrawalStatus,
} from "@taskmint/shared";
import { api } from "../../lib/api.ts";

const all = ["admin"] as const;

/** What the admin pages show; `all` is what an admin's action invalidates. */
export const adminQueries = {
  all,
  stats: () =>
    queryOptions({ queryKey: [...all, "stats"], queryFn: () => api<AdminStats>("/api/admin/stats") }),
  ledger: () =>
    queryOptions({
      queryKey: [...all, "ledger-check"],
      queryFn: () => api<LedgerReport>("/api/admin/ledger/check"),
    }),
  /** Withdrawals by status ("" for all) and a search of the worker's name or email. */
  withdrawals: (page: number, status: WithdrawalStatus | "", q: string) =>
    queryOptions({
      queryKey: [...all, "withdrawals", page, status, q],
      queryFn: () =>
        api<Page<Withdrawal>>(
          `/api/admin/withdrawals?page=${page}&limit=10${status ? `&status=${status}` : ""}${q ? `&q=${encodeURIComponent(q)}` : ""}`,
        ),
      placeholderData: keepPreviousData,
    }),
  /** `pageQuery` comes from useCursorPages(). */
  users: (pageQuery: string, q: string, role: Role | "") =>
    queryOptions({
      queryKey: [...all, "users", pageQuery, q, role],
      queryFn: () =>
        api<LargePage<AdminUser>>(
          `/api/admin/users?${pageQuery}&limit=10&q=${encodeURIComponent(q)}${role ? `&role=${role}` : ""}`,
        ),
      placeholderData: keepPreviousData,
    }),
  /** Before paying out a user being deleted: their balance, whether they may be paid, the risk (rule R30). */
  payoutReview: (userId: string) =>
    queryOptions({
      queryKey: [...all, "payout-review", userId],
      queryFn: () => api<PayoutReview>(`/api/admin/users/${userId}/payout-review`),
    }),
  /** `pageQuery` comes from useCursorPages(). */
  tasks: (pageQuery: string) =>
    queryOptions({
      queryKey: [...all, "tasks", pageQuery],
      queryFn: () => api<LargePage<Task>>(`/api/admin/tasks?${pageQuery}&limit=10`),
      placeholderData: keepPreviousData,
    }),
  audit: (page: number, action: string) =>
    queryOptions({
      queryKey: [...all, "audit", page, action],
      queryFn: () =>
        api<Page<AuditRecord>>(`/api/admin/audit?page=${page}&limit=10${action ? `&action=${action}` : ""}`),
      placeholderData: keepPreviousData,
    }),
  dailyActivity: (days: number) =>
    queryOptions({
      queryKey: [...all, "daily", days],
      queryFn: () => api<DailyActivity[]>(`/api/admin/stats/daily?days=${days}`),
    }),
};
