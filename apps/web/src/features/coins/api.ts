import { useMutation } from "@tanstack/react-query";
import type { Payment, SandboxCard, StartedPayment, Withdrawal, WithdrawalRequest } from "@taskmint/shared";
import { api } from "../../lib/api.ts";
import { sessionQueries } from "../../lib/auth.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { coinQueries } from "./queries.ts";

/** After coins moved: the balance and the coin lists. */
const useRefreshCoins = () => useInvalidate(sessionQueries.me().queryKey, coinQueries.all);

/** Starts a purchase and pays it with the sandbox's test card; answers the settled payment. */
export function usePayWithCard() {
  const refresh = useRefreshCoins();
  return useMutation({
    mutationFn: async ({ packageId, card }: { packageId: string; card: SandboxCard }) => {
      const started = await api<StartedPayment>("/api/payments", { body: { package_id: packageId } });
      return api<Payment>(`/api/payments/${started.payment.id}/sandbox-confirm`, { body: card });
    },
    onSettled: refresh,
  });
}

/** After Stripe.js confirmed the card: the server re-reads the payment from Stripe. */
export function useConfirmStripePayment() {
  const refresh = useRefreshCoins();
  return useMutation({
    mutationFn: (paymentId: string) => api<Payment>(`/api/payments/${paymentId}/confirm`, { body: {} }),
    onSettled: refresh,
  });
}

export function useRequestWithdrawal() {
  const refresh = useRefreshCoins();
  return useMutation({
    mutationFn: (request: WithdrawalRequest) => api<Withdrawal>("/api/withdrawals", { body: request }),
    onSuccess: refresh,
  });
}

/** The worker takes back a pending withdrawal; the held coins return to their balance. */
export function useCancelWithdrawal() {
  const refresh = useRefreshCoins();
  return useMutation({
    mutationFn: (withdrawal: Withdrawal) =>
      api<Withdrawal>(`/api/withdrawals/${withdrawal.id}/cancel`, { body: {} }),
    onSuccess: refresh,
  });
}
