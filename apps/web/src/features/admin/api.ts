import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminStats, Page, Withdrawal } from "@taskmint/shared";
import { api } from "../../lib/api.ts";

export interface LedgerReport {
  ok: boolean;
  issued: number;
  wallets: number;
  escrow: number;
  held: number;
  paid_out: number;
  problems: string[];
}

export const useAdminStats = () => useQuery({ queryKey: ["admin-stats"], queryFn: () => api<AdminStats>("/api/admin/stats") });
export const useLedgerCheck = () => useQuery({ queryKey: ["ledger-check"], queryFn: () => api<LedgerReport>("/api/admin/ledger/check") });

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
      api<Withdrawal>(`/api/admin/withdrawals/${id}/${approve ? "approve" : "reject"}`, { body: approve ? {} : { reason } }),
    onSuccess: () =>
      Promise.all(["admin-withdrawals", "admin-stats", "ledger-check"].map((key) => client.invalidateQueries({ queryKey: [key] }))),
  });
}
