import { useMutation } from "@tanstack/react-query";
import {
  adminEndpoints,
  withdrawalsEndpoints,
  type DeleteUserRequest,
  type PayoutForm,
  type Role,
} from "@taskmint/shared";
import { call } from "../../lib/api.ts";
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
        ? call(withdrawalsEndpoints.approveWithdrawal, {
            params: { id },
            body: {
              payout_reference: decision.payout_reference,
              ...(decision.confirm_high_risk ? { confirm_high_risk: true } : {}),
            },
          })
        : call(withdrawalsEndpoints.rejectWithdrawal, { params: { id }, body: { reason: decision.reason } }),
    onSuccess: refresh,
  });
}

export function useChangeRole() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) =>
      call(adminEndpoints.changeUserRole, { params: { id }, body: { role } }),
    onSuccess: refresh,
  });
}

/** Deletes a user; `choice` says what happens to their coins (rule R12). */
export function useDeleteUser() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: ({ id, choice }: { id: string; choice: DeleteUserRequest }) =>
      call(adminEndpoints.deleteUser, { params: { id }, body: choice }),
    onSuccess: refresh,
  });
}

export function useAdminDeleteTask() {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: (id: string) => call(adminEndpoints.deleteAnyTask, { params: { id } }),
    onSuccess: refresh,
  });
}
