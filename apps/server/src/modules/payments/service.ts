import { randomUUID } from "node:crypto";
import { and, eq, lte, sql } from "drizzle-orm";
import {
  DAY_MS,
  COIN_PACKAGES,
  paths,
  type Page,
  type PageQuery,
  type Payment,
  type SandboxCard,
} from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { payments, users } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { MINT, transfer, walletOf } from "../ledger/service.ts";
import { notify } from "../notifications/service.ts";
import { newestFirstPage } from "../../lib/paging.ts";
import type { PaymentProvider, SandboxProvider, StripeProvider } from "./providers.ts";

const selectPayments = (db: Database) =>
  db
    .select({ payment: payments, buyerEmail: users.email })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.buyerId));

type PaymentRow = Awaited<ReturnType<ReturnType<typeof selectPayments>["execute"]>>[number];

function toPayment({ payment, buyerEmail }: PaymentRow): Payment {
  return {
    id: payment.id,
    paymentId: payment.providerPaymentId ?? payment.id,
    amount: payment.amountCents / 100,
    coins: payment.coins,
    buyer_email: buyerEmail,
    status: payment.status,
    ...(payment.failureReason ? { failure_reason: payment.failureReason } : {}),
    transactionDate: (payment.completedAt ?? payment.createdAt).toISOString(),
  };
}

/** One of the buyer's own payments. */
export async function getPayment(db: Database, buyerId: string, id: string): Promise<Payment> {
  const [row] = await selectPayments(db).where(and(eq(payments.id, id), eq(payments.buyerId, buyerId)));
  if (!row) throw notFound("Payment");
  return toPayment(row);
}

/** Rule R11: the buyer names a package; its coins and price come from the server. */
export async function startPurchase(
  db: Database,
  purchase: { provider: PaymentProvider; buyer: { id: string; email: string }; packageId: string; now: Date },
): Promise<{ payment: Payment; client_secret: string }> {
  const { provider, buyer, packageId, now } = purchase;
  const pack = COIN_PACKAGES.find((candidate) => candidate.id === packageId);
  if (!pack) throw new AppError("VALIDATION", "Unknown coin package", { package_id: "Unknown coin package" });
  const id = randomUUID();
  const amountCents = pack.price * 100;
  await db.insert(payments).values({
    id,
    buyerId: buyer.id,
    packageId: pack.id,
    coins: pack.coins,
    amountCents,
    provider: provider.name,
    createdAt: now,
  });
  const intent = await provider.createIntent({ id, amountCents, buyerEmail: buyer.email });
  await db.update(payments).set({ providerPaymentId: intent.providerPaymentId }).where(eq(payments.id, id));
  return { payment: await getPayment(db, buyer.id, id), client_secret: intent.clientSecret };
}

/**
 * Credits a verified payment's coins, exactly once per provider payment id, whichever
 * path (browser confirmation or webhook) gets here first, however often.
 */
export async function completePurchase(
  db: Database,
  verified: { providerPaymentId: string; verifiedAmountCents: number; now: Date },
): Promise<void> {
  const { providerPaymentId, verifiedAmountCents, now } = verified;
  await db.transaction(async (tx) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(eq(payments.providerPaymentId, providerPaymentId))
      .for("update");
    if (!payment) throw notFound("Payment");
    if (payment.status === "completed") return;
    if (payment.amountCents !== verifiedAmountCents) {
      throw new AppError(
        "CONFLICT",
        `Paid amount ${verifiedAmountCents} does not match the package price ${payment.amountCents}`,
      );
    }
    await tx
      .update(payments)
      .set({ status: "completed", failureReason: null, completedAt: now })
      .where(eq(payments.id, payment.id));
    await transfer(tx, {
      from: MINT,
      to: walletOf(payment.buyerId),
      amount: payment.coins,
      idempotencyKey: `purchase:${payment.provider}:${providerPaymentId}`,
    });
    await notify(tx, {
      userId: payment.buyerId,
      message: `${payment.coins} coins were credited to your balance`,
      actionRoute: paths.dashboard.paymentHistory,
      kind: "other",
    });
  });
}

async function failPurchase(db: Database, id: string, reason: string) {
  await db
    .update(payments)
    .set({ status: "failed", failureReason: reason })
    .where(and(eq(payments.id, id), eq(payments.status, "pending")));
}

/** A purchase still pending this long after it started was left by its buyer. */
export const ABANDONED_AFTER_MS = DAY_MS;

/**
 * Fails the purchases started more than a day ago and never paid, with the reason
 * `abandoned`. One conditional update: safe when several server processes run it at once.
 * A Stripe payment that succeeds later is still credited (completePurchase takes a failed one).
 */
export async function failAbandonedPurchases(db: Database, now: Date): Promise<number> {
  const startedBefore = new Date(now.getTime() - ABANDONED_AFTER_MS);
  const failed = await db
    .update(payments)
    .set({ status: "failed", failureReason: "abandoned" })
    .where(and(eq(payments.status, "pending"), lte(payments.createdAt, startedBefore)))
    .returning({ id: payments.id });
  return failed.length;
}

async function ownPendingPayment(db: Database, buyerId: string, id: string, provider: "sandbox" | "stripe") {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.buyerId, buyerId)));
  if (!payment) throw notFound("Payment");
  if (payment.provider !== provider)
    throw new AppError("CONFLICT", `This payment is handled by ${payment.provider}`);
  return payment;
}

/** The sandbox's card form: charges the test card and completes or fails the payment. */
export async function confirmSandboxPayment(
  db: Database,
  confirmation: {
    sandbox: SandboxProvider;
    buyerId: string;
    paymentId: string;
    card: SandboxCard;
    now: Date;
  },
): Promise<Payment> {
  const { sandbox, buyerId, paymentId: id, card, now } = confirmation;
  const payment = await ownPendingPayment(db, buyerId, id, "sandbox");
  if (payment.status !== "pending" || !payment.providerPaymentId) {
    throw new AppError("ALREADY_DECIDED", `This payment is already ${payment.status}`);
  }
  const outcome = sandbox.charge(card, now);
  if (outcome.succeeded) {
    const { providerPaymentId, amountCents } = payment;
    await completePurchase(db, { providerPaymentId, verifiedAmountCents: amountCents, now });
  } else await failPurchase(db, id, outcome.message);
  return getPayment(db, buyerId, id);
}

/** Brings a Stripe payment up to date from Stripe itself (never from the browser's word). */
export async function syncStripePayment(
  db: Database,
  sync: { stripe: StripeProvider; providerPaymentId: string; now: Date },
): Promise<void> {
  const { stripe, providerPaymentId, now } = sync;
  const intent = await stripe.retrieve(providerPaymentId);
  const [payment] = await db.select().from(payments).where(eq(payments.providerPaymentId, intent.id));
  if (!payment || intent.metadata.payment_id !== payment.id) return;
  if (intent.status === "succeeded")
    await completePurchase(db, {
      providerPaymentId: intent.id,
      verifiedAmountCents: intent.amount_received || intent.amount,
      now,
    });
  else if (intent.status === "canceled") await failPurchase(db, payment.id, "The payment was canceled.");
  else if (intent.last_payment_error?.message) {
    await db
      .update(payments)
      .set({ failureReason: intent.last_payment_error.message })
      .where(eq(payments.id, payment.id));
  }
}

/** The browser's "I think it went through": re-reads the intent from Stripe. */
export async function confirmStripePayment(
  db: Database,
  confirmation: { stripe: StripeProvider; buyerId: string; paymentId: string; now: Date },
): Promise<Payment> {
  const { stripe, buyerId, paymentId: id, now } = confirmation;
  const payment = await ownPendingPayment(db, buyerId, id, "stripe");
  if (payment.status === "pending" && payment.providerPaymentId)
    await syncStripePayment(db, { stripe, providerPaymentId: payment.providerPaymentId, now });
  return getPayment(db, buyerId, id);
}

export async function listPayments(db: Database, buyerId: string, page: PageQuery): Promise<Page<Payment>> {
  const where = eq(payments.buyerId, buyerId);
  return newestFirstPage(db, { table: payments, select: selectPayments, toItem: toPayment }, where, page);
}

/** Dollars of the buyer's completed purchases (rule R14). */
export async function completedPurchaseDollars(db: Database, buyerId: string): Promise<number> {
  const [row] = await db
    .select({ cents: sql<number>`cast(coalesce(sum(${payments.amountCents}), 0) as int)` })
    .from(payments)
    .where(and(eq(payments.buyerId, buyerId), eq(payments.status, "completed")));
  return (row?.cents ?? 0) / 100;
}
