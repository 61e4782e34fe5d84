import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";
import { ledgerEndpoints, paymentsEndpoints, withdrawalsEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";

const all = ["coins"] as const;
const PAGE_SIZE = 10;

/** Coin packages, payments and withdrawals; `all` is what moving coins invalidates. */
export const coinQueries = {
  all,
  packages: () =>
    queryOptions({
      queryKey: [...all, "packages"],
      queryFn: () => call(paymentsEndpoints.listCoinPackages),
      staleTime: Infinity,
    }),
  payments: (page: number) =>
    queryOptions({
      queryKey: [...all, "payments", page],
      queryFn: () => call(paymentsEndpoints.listMyPayments, { query: { page, limit: PAGE_SIZE } }),
      placeholderData: keepPreviousData,
    }),
  myWithdrawals: (page: number) =>
    queryOptions({
      queryKey: [...all, "my-withdrawals", page],
      queryFn: () => call(withdrawalsEndpoints.listMyWithdrawals, { query: { page, limit: PAGE_SIZE } }),
      placeholderData: keepPreviousData,
    }),
  /** The coin statement, newest first, 25 entries at a time. */
  statement: () =>
    infiniteQueryOptions({
      queryKey: [...all, "statement"],
      queryFn: ({ pageParam }) =>
        call(ledgerEndpoints.getMyStatement, { query: { limit: 25, cursor: pageParam || undefined } }),
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
      queryFn: () => call(paymentsEndpoints.startPayment, { body: { package_id: packageId } }),
      staleTime: "static",
      gcTime: 0,
      retry: false,
      refetchOnWindowFocus: false,
    }),
};
