import { z } from "zod";
import { paymentProviders } from "./common.ts";
import { COINS_PER_DOLLAR } from "./constants.ts";
import { cursorPageOf, cursorSchema, MAX_PAGE_LIMIT, pageQuerySchema } from "./paging.ts";
import { queryTextSchema, textSchema } from "./text.ts";

/** Rule R11: the packages on sale, defined once. Prices in dollars. */
export const COIN_PACKAGES = [
  { id: "coins-10", coins: 10, price: 1 },
  { id: "coins-150", coins: 150, price: 10 },
  { id: "coins-500", coins: 500, price: 20 },
  { id: "coins-1000", coins: 1000, price: 35 },
] as const;
export type CoinPackage = (typeof COIN_PACKAGES)[number];

export const coinPackageSchema = z.object({ id: z.string(), coins: z.number().int(), price: z.number() });
export type CoinPackageOffer = z.infer<typeof coinPackageSchema>;

export const MIN_WITHDRAWAL_COINS = 200;
export const PAYMENT_SYSTEMS = ["Bkash", "Rocket", "Nagad", "PayPal"] as const;
export type PaymentSystem = (typeof PAYMENT_SYSTEMS)[number];

/** Rule R10: the dollars a withdrawal of `coins` pays, with two decimals. */
export const withdrawalDollars = (coins: number) => Math.floor((coins * 100) / COINS_PER_DOLLAR) / 100;

const BANGLADESHI_MOBILE = /^01\d{9}$/;

export const withdrawalRequestSchema = z
  .object({
    withdrawal_coin: z.coerce
      .number({ error: "Enter the coins to withdraw" })
      .int("Coins must be a whole number")
      .min(MIN_WITHDRAWAL_COINS, `Minimum withdrawal is ${MIN_WITHDRAWAL_COINS} coins`)
      .max(100_000_000, "That is more coins than anyone has"),
    payment_system: z.enum(PAYMENT_SYSTEMS, { error: "Choose a payment system" }),
    account_number: textSchema("Account number", { max: 254 }),
  })
  .superRefine((request, ctx) => {
    const account = request.account_number;
    const valid =
      request.payment_system === "PayPal"
        ? z.email().safeParse(account).success
        : BANGLADESHI_MOBILE.test(account);
    if (!valid) {
      ctx.addIssue({
        code: "custom",
        path: ["account_number"],
        message:
          request.payment_system === "PayPal"
            ? "Enter the email address of your PayPal account"
            : `Enter your ${request.payment_system} mobile number: 11 digits starting with 01`,
      });
    }
  });
export type WithdrawalRequest = z.infer<typeof withdrawalRequestSchema>;

export const withdrawalStatuses = ["pending", "approved", "rejected", "cancelled"] as const;
export type WithdrawalStatus = (typeof withdrawalStatuses)[number];

/** The longest search of the admin's withdrawal list. */
export const WITHDRAWAL_SEARCH_MAX = 100;

export const withdrawalListQuerySchema = pageQuerySchema.extend({
  status: z.enum(withdrawalStatuses).optional(),
  /** Part of the worker's name or email address. */
  q: queryTextSchema("The search", WITHDRAWAL_SEARCH_MAX),
});

/** Issue 19: how likely a pending withdrawal pays out coins a worker was paid by themselves. */
export const riskLevels = ["low", "medium", "high"] as const;
export type RiskLevel = (typeof riskLevels)[number];
export const withdrawalRiskSchema = z.object({ level: z.enum(riskLevels), reasons: z.array(z.string()) });
export type WithdrawalRisk = z.infer<typeof withdrawalRiskSchema>;

export const withdrawalSchema = z.object({
  id: z.string(),
  worker_email: z.string(),
  worker_name: z.string(),
  withdrawal_coin: z.number().int(),
  withdrawal_amount: z.number(),
  payment_system: z.enum(PAYMENT_SYSTEMS),
  account_number: z.string(),
  withdraw_date: z.string(),
  status: z.enum(withdrawalStatuses),
  reason: z.string().optional(),
  createdAt: z.string(),
  /** When an admin approved or rejected it, or the worker cancelled it; absent while pending. */
  decided_at: z.string().optional(),
  /** What the admin paid it under (the Bkash/Nagad/Rocket transaction id or PayPal id). */
  payout_reference: z.string().nullable(),
  /** The request's timeline, oldest first: requested, then how it ended. */
  events: z.array(z.object({ status: z.enum(withdrawalStatuses), at: z.string() })),
  /** Admins only, while pending. */
  risk: withdrawalRiskSchema.optional(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

/** The admin's approval form: the reference the money was sent under is asked for every time. */
export const payoutFormSchema = z.object({
  payout_reference: textSchema("The payout reference", { max: 100 }),
  confirm_high_risk: z.boolean().optional(),
});
export type PayoutForm = z.infer<typeof payoutFormSchema>;

/**
 * Body of approving a withdrawal: the reference it was paid under (optional, for the clients of
 * the first API); a high risk needs `confirm_high_risk`.
 */
export const withdrawalApprovalSchema = payoutFormSchema
  .extend({ payout_reference: payoutFormSchema.shape.payout_reference.optional() })
  .strict();
export type WithdrawalApproval = z.infer<typeof withdrawalApprovalSchema>;

/** What a statement entry was, named from the cause of its transfer. */
export const statementEntryKinds = [
  "sign_up_bonus",
  "purchase",
  "task_funded",
  "task_refund",
  "rejection_refund",
  "earning",
  "appeal_payment",
  "bonus_sent",
  "bonus_received",
  "withdrawal",
  "withdrawal_returned",
  "account_closed",
  "adjustment",
] as const;
export type StatementEntryKind = (typeof statementEntryKinds)[number];

/** One movement of a user's coins, with their balance right after it (issue 19). */
export const statementEntrySchema = z.object({
  id: z.string(),
  created_at: z.string(),
  kind: z.enum(statementEntryKinds),
  description: z.string(),
  /** Coins in (+) or out (-) of the user's balance. */
  amount: z.number().int(),
  balance_after: z.number().int(),
  task_id: z.string().optional(),
  counterparty_name: z.string().optional(),
});
export type StatementEntry = z.infer<typeof statementEntrySchema>;

export const statementQuerySchema = z.object({
  cursor: cursorSchema,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(20),
});
export type StatementQuery = z.infer<typeof statementQuerySchema>;
export const statementPageSchema = cursorPageOf(statementEntrySchema);

export const paymentStatuses = ["pending", "completed", "failed"] as const;

export const paymentSchema = z.object({
  id: z.string(),
  paymentId: z.string(),
  amount: z.number(),
  coins: z.number().int(),
  buyer_email: z.string(),
  status: z.enum(paymentStatuses),
  failure_reason: z.string().optional(),
  transactionDate: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** Body of POST /api/payments. */
export const startPaymentSchema = z.object({ package_id: z.string().max(50) }).strict();

/** Answer of POST /api/payments: the pending payment and what the browser needs to pay it. */
export const startedPaymentSchema = z.object({
  payment: paymentSchema,
  provider: z.enum(paymentProviders),
  client_secret: z.string(),
  publishable_key: z.string().nullable(),
});
export type StartedPayment = z.infer<typeof startedPaymentSchema>;

export const sandboxCardSchema = z.object({
  card_number: z
    .string({ error: "Card number is required" })
    .transform((value) => value.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{13,19}$/, "Your card number is incomplete.")),
  exp_month: z.coerce
    .number({ error: "Expiry month is required" })
    .int()
    .min(1, "Your card's expiration month is invalid.")
    .max(12, "Your card's expiration month is invalid."),
  exp_year: z.coerce
    .number({ error: "Expiry year is required" })
    .int()
    .min(2000, "Your card's expiration year is invalid.")
    .max(2100, "Your card's expiration year is invalid."),
  cvc: z.string({ error: "CVC is required" }).regex(/^\d{3,4}$/, "Your card's security code is incomplete."),
});
export type SandboxCard = z.infer<typeof sandboxCardSchema>;

/**
 * What happens to a deleted account's coins (rule R12, decision 010): `forfeit` returns
 * them to the platform (the mint); `payout` records them as paid out to the person, under
 * the admin's reference. Whatever remains after the refunds of deletion moves; none stays.
 */
export const deletedAccountCoinsChoices = ["forfeit", "payout"] as const;
export type DeletedAccountCoins = (typeof deletedAccountCoinsChoices)[number];

const chooseCoins = "Choose what happens to the user's coins: forfeit or payout";
export const deleteUserSchema = z.discriminatedUnion(
  "coins",
  [
    z.object({ coins: z.literal("forfeit") }).strict(),
    z
      .object({
        coins: z.literal("payout"),
        payout_reference: textSchema("A payout reference", { max: 200 }),
        // Rule R30: a payout on deletion is reviewed as a withdrawal is; a high risk is confirmed.
        confirm_high_risk: z.boolean().optional(),
      })
      .strict(),
  ],
  { error: chooseCoins },
);
export type DeleteUserRequest = z.infer<typeof deleteUserSchema>;

/** What an admin reads before paying out a user being deleted: the review a withdrawal gets. */
export const payoutReviewSchema = z.object({
  /** The wallet now; deleting first returns pending withdrawals and refunds open tasks into it. */
  balance: z.number().int(),
  /** A payout goes only to a confirmed address (or someone paid out before), as a withdrawal does. */
  may_be_paid: z.boolean(),
  risk: withdrawalRiskSchema,
});
export type PayoutReview = z.infer<typeof payoutReviewSchema>;
