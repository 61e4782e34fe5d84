import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AdminStats,
  AdminUser,
  AuditRecord,
  DeletedUser,
  LedgerReport,
  RefundedCoins,
  DailyActivity,
  DeleteUserRequest,
  LargePage,
  Page,
  Role,
  Task,
  Withdrawal,
} from "@taskmint/shared";
import { api } from "../../lib/api.ts";

export const useAdminStats = () =>
  useQuery({ queryKey: ["admin-stats"], queryFn: () => api<AdminStats>("/api/admin/stats") });
export const useLedgerCheck = () =>
  useQuery({ queryKey: ["ledger-check"], queryFn: () => api<LedgerReport>("/api/admin/ledger/check") });

export const usePendingWithdrawals = (page: number) =>
  useQuery({
    queryKey: ["admin-withdrawals", page],
    queryFn: () => api<Page<Withdrawal>>(`/api/admin/withdrawals?status=pending&page=${page}&limit=10`),
    placeholderData: keepPreviousData,
  });

export function useDecideWithdrawal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve, reason }: { id: string; approve: boolean; reason?: string }) =>
      api<Withdrawal>(`/api/admin/withdrawals/${id}/${approve ? "approve" : "reject"}`, {
        body: approve ? {} : { reason },
      }),
    onSuccess: () =>
      Promise.all(
        ["admin-withdrawals", "admin-stats", "ledger-check"].map((key) =>
          client.invalidateQueries({ queryKey: [key] }),
        ),
      ),
  });
}

/** `pageQuery` comes from useCursorPages(). */
export const useAdminUsers = (pageQuery: string, q: string, role: Role | "") =>
  useQuery({
    queryKey: ["admin-users", pageQuery, q, role],
    queryFn: () =>
      api<LargePage<AdminUser>>(
        `/api/admin/users?${pageQuery}&limit=10&q=${encodeURIComponent(q)}${role ? `&role=${role}` : ""}`,
      ),
    placeholderData: keepPreviousData,
  });

export const useAdminTasks = (pageQuery: string) =>
  useQuery({
    queryKey: ["admin-tasks", pageQuery],
    queryFn: () => api<LargePage<Task>>(`/api/admin/tasks?${pageQuery}&limit=10`),
    placeholderData: keepPreviousData,
  });

export const useAuditTrail = (page: number, action: string) =>
  useQuery({
    queryKey: ["admin-audit", page, action],
    queryFn: () =>
      api<Page<AuditRecord>>(`/api/admin/audit?page=${page}&limit=10${action ? `&action=${action}` : ""}`),
    placeholderData: keepPreviousData,
  });

function useRefreshAdmin() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      ["admin-users", "admin-tasks", "admin-stats", "admin-audit", "ledger-check"].map((key) =>
        client.invalidateQueries({ queryKey: [key] }),
      ),
    );
}

export function useChangeRole() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) =>
      api<AdminUser>(`/api/admin/users/${id}`, { method: "PATCH", body: { role } }),
    onSuccess: refresh,
  });
}

/** Deletes a user; `choice` says what happens to their coins (rule R12). */
export function useDeleteUser() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, choice }: { id: string; choice: DeleteUserRequest }) =>
      api<DeletedUser>(`/api/admin/users/${id}`, { method: "DELETE", body: choice }),
    onSuccess: refresh,
  });
}

export function useAdminDeleteTask() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: string) => api<RefundedCoins>(`/api/admin/tasks/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}

export const useDailyActivity = (days: number) =>
  useQuery({
    queryKey: ["admin-daily", days],
    queryFn: () => api<DailyActivity[]>(`/api/admin/stats/daily?days=${days}`),
  });
