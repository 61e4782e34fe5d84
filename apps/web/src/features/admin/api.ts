import { useMutation } from "@tanstack/react-query";
import type {
  AdminUser,
  DeletedUser,
  DeleteUserRequest,
  PayoutForm,
  RefundedCoins,
  Role,
  Withdrawal,
} from "@taskmint/shared";
import { api } from "../../lib/api.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { adminQueries } from "./queries.ts";

/** Every admin action can change the counts, the ledger, the lists and the audit trail. */
const useRefreshAdmin = () => useInvalidate(adminQueries.all);

export type WithdrawalDecision = { id: string } & (
  ({ approve: true } & PayoutForm) | { approve: false; reason: string }
);

export function useDecideWithdrawal() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, ...decision }: WithdrawalDecision) =>
      decision.approve
        ? api<Withdrawal>(`/api/admin/withdrawals/${id}/approve`, {
            body: {
              payout_reference: decision.payout_reference,
              ...(decision.confirm_high_risk ? { confirm_high_risk: true } : {}),
            },
          })
        : api<Withdrawal>(`/api/admin/withdrawals/${id}/reject`, { body: { reason: decision.reason } }),
    onSuccess: refresh,
  });
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
