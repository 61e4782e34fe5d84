import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CoinPackageOffer,
  Page,
  Payment,
  SandboxCard,
  StartedPayment,
  Withdrawal,
  WithdrawalRequest,
} from "@taskmint/shared";
import { api } from "../../lib/api.ts";
import { meKey } from "../../lib/auth.ts";

export const useCoinPackages = () =>
  useQuery({
    queryKey: ["coin-packages"],
    queryFn: () => api<CoinPackageOffer[]>("/api/coin-packages"),
    staleTime: Infinity,
  });

export const usePaymentHistory = (page: number) =>
  useQuery({
    queryKey: ["payments", page],
    queryFn: () => api<Page<Payment>>(`/api/payments?page=${page}&limit=10`),
    placeholderData: keepPreviousData,
  });

export const useMyWithdrawals = (page: number) =>
  useQuery({
    queryKey: ["my-withdrawals", page],
    queryFn: () => api<Page<Withdrawal>>(`/api/worker/withdrawals?page=${page}&limit=10`),
    placeholderData: keepPreviousData,
  });

/** Starts a purchase and pays it with the sandbox's test card; answers the settled payment. */
export function usePayWithCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ packageId, card }: { packageId: string; card: SandboxCard }) => {
      const started = await api<StartedPayment>("/api/payments", { body: { package_id: packageId } });
      return api<Payment>(`/api/payments/${started.payment.id}/sandbox-confirm`, { body: card });
    },
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: meKey }),
        client.invalidateQueries({ queryKey: ["payments"] }),
      ]),
  });
}

/** Stripe: the payment and its client secret, made once per visit of the payment page. */
export const useStripeIntent = (packageId: string) =>
  useQuery({
    queryKey: ["stripe-intent", packageId],
    queryFn: () =>
      api<StartedPayment>("/api/payments", {
        body: { package_id: packageId },
      }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

/** After Stripe.js confirmed the card: the server re-reads the payment from Stripe. */
export function useConfirmStripePayment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (paymentId: string) => api<Payment>(`/api/payments/${paymentId}/confirm`, { body: {} }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: meKey }),
        client.invalidateQueries({ queryKey: ["payments"] }),
      ]),
  });
}

export function useRequestWithdrawal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: WithdrawalRequest) => api<Withdrawal>("/api/withdrawals", { body: request }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: meKey }),
        client.invalidateQueries({ queryKey: ["my-withdrawals"] }),
      ]),
  });
}
