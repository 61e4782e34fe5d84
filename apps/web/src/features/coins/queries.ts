import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";
import type {
  CoinPackageOffer,
  CursorPage,
  Page,
  Payment,
  StartedPayment,
  StatementEntry,
  Withdrawal,
} from "@taskmint/shared";
import { api } from "../../lib/api.ts";

const all = ["coins"] as const;

/** Coin packages, payments and withdrawals; `all` is what moving coins invalidates. */
export const coinQueries = {
  all,
  packages: () =>
    queryOptions({
      queryKey: [...all, "packages"],
      queryFn: () => api<CoinPackageOffer[]>("/api/coin-packages"),
      staleTime: Infinity,
    }),
  payments: (page: number) =>
    queryOptions({
      queryKey: [...all, "payments", page],
      queryFn: () => api<Page<Payment>>(`/api/payments?page=${page}&limit=10`),
      placeholderData: keepPreviousData,
    }),
  myWithdrawals: (page: number) =>
    queryOptions({
      queryKey: [...all, "my-withdrawals", page],
      queryFn: () => api<Page<Withdrawal>>(`/api/worker/withdrawals?page=${page}&limit=10`),
      placeholderData: keepPreviousData,
    }),
  /** The coin statement, newest first, 25 entries at a time. */
  statement: () =>
    infiniteQueryOptions({
      queryKey: [...all, "statement"],
      queryFn: ({ pageParam }) =>
        api<CursorPage<StatementEntry>>(
          `/api/me/statement?limit=25${pageParam ? `&cursor=${pageParam}` : ""}`,
        ),
      initialPageParam: "",
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
  /**
   * Stripe: the payment and its client secret, made once per visit of the payment page.
   * Outside `all`, and static: no invalidation (a live notification refreshes every query)
   * may fetch it again, which would start another payment.
   */
  stripeIntent: (packageId: string) =>
    queryOptions({
      queryKey: ["stripe-intent", packageId],
      queryFn: () => api<StartedPayment>("/api/payments", { body: { package_id: packageId } }),
      staleTime: "static",
      gcTime: 0,
      retry: false,
      refetchOnWindowFocus: false,
    }),
};
