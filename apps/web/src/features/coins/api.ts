import { useMutation } from "@tanstack/react-query";
import {
  paymentsEndpoints,
  withdrawalsEndpoints,
  type SandboxCard,
  type Withdrawal,
  type WithdrawalRequest,
} from "@taskmint/shared";
import { call } from "../../lib/api.ts";
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
      const started = await call(paymentsEndpoints.startPayment, { body: { package_id: packageId } });
      return call(paymentsEndpoints.confirmSandboxPayment, {
        params: { id: started.payment.id },
        body: card,
      });
    },
    onSettled: refresh,
  });
}

/** After Stripe.js confirmed the card: the server re-reads the payment from Stripe. */
export function useConfirmStripePayment() {
  const refresh = useRefreshCoins();
  return useMutation({
    mutationFn: (paymentId: string) => call(paymentsEndpoints.confirmPayment, { params: { id: paymentId } }),
    onSettled: refresh,
  });
}

export function useRequestWithdrawal() {
  const refresh = useRefreshCoins();
  return useMutation({
    mutationFn: (request: WithdrawalRequest) =>
      call(withdrawalsEndpoints.requestWithdrawal, { body: request }),
    onSuccess: refresh,
  });
}

/** The worker takes back a pending withdrawal; the held coins return to their balance. */
export function useCancelWithdrawal() {
  const refresh = useRefreshCoins();
  return useMutation({
    mutationFn: (withdrawal: Withdrawal) =>
      call(withdrawalsEndpoints.cancelWithdrawal, { params: { id: withdrawal.id } }),
    onSuccess: refresh,
  });
}
