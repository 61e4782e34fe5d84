import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import type { SandboxCard } from "@taskmint/shared";
import type { Env } from "../../env.ts";
import { AppError } from "../../lib/errors.ts";

/** What the payment flow needs from a card provider (rule R11). */
export interface PaymentProvider {
  readonly name: "sandbox" | "stripe";
  /** Starts a payment; the browser finishes it with the client secret. */
  createIntent(payment: {
    id: string;
    amountCents: number;
    buyerEmail: string;
  }): Promise<{ providerPaymentId: string; clientSecret: string }>;
}

export type SandboxOutcome = { succeeded: true } | { succeeded: false; message: string };

/** Card test mode, in process: the well-known test numbers behave as they do at Stripe. */
export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox" as const;

  async createIntent() {
    const providerPaymentId = `sbx_pi_${randomBytes(12).toString("hex")}`;
    return {
      providerPaymentId,
      clientSecret: `${providerPaymentId}_secret_${randomBytes(8).toString("hex")}`,
    };
  }

  /** A card the provider refuses before charging it (bad number, expired) fails the payment like a decline. */
  charge(card: SandboxCard, now: Date): SandboxOutcome {
    if (!luhnValid(card.card_number)) return { succeeded: false, message: "Your card number is invalid." };
    const expiresAfter = new Date(Date.UTC(card.exp_year, card.exp_month, 1));
    if (expiresAfter <= now)
      return { succeeded: false, message: "Your card's expiration date is in the past." };
    switch (card.card_number) {
      case "4242424242424242":
      case "5555555555554444":
        return { succeeded: true };
      case "4000000000009995":
        return { succeeded: false, message: "Your card has insufficient funds." };
      case "4000000000000002":
        return { succeeded: false, message: "Your card was declined." };
      default:
        return {
          succeeded: false,
          message:
            "Your card was declined. This is a test environment: use a test card such as 4242 4242 4242 4242.",
        };
    }
  }
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Stripe PaymentIntents; coins are credited only after the intent is re-read from Stripe. */
export class StripeProvider implements PaymentProvider {
  readonly name = "stripe" as const;

  constructor(
    readonly client: Stripe,
    private readonly webhookSecret: string | undefined,
  ) {}

  async createIntent(payment: { id: string; amountCents: number; buyerEmail: string }) {
    const intent = await this.client.paymentIntents.create(
      {
        amount: payment.amountCents,
        currency: "usd",
        automatic_payment_methods: { enabled: true },
        receipt_email: payment.buyerEmail,
        metadata: { payment_id: payment.id },
      },
      { idempotencyKey: `payment:${payment.id}` },
    );
    if (!intent.client_secret) throw new Error("Stripe returned a PaymentIntent without a client secret");
    return { providerPaymentId: intent.id, clientSecret: intent.client_secret };
  }

  async retrieve(providerPaymentId: string) {
    return this.client.paymentIntents.retrieve(providerPaymentId);
  }

  /** Checks the signature over the raw body; answers the event, or a 400 AppError. */
  verifyEvent(rawBody: Buffer, signature: string | undefined) {
    if (!this.webhookSecret) throw new AppError("VALIDATION", "Webhooks are not configured");
    try {
      return this.client.webhooks.constructEvent(rawBody, signature ?? "", this.webhookSecret);
    } catch {
      throw new AppError("VALIDATION", "Invalid webhook signature");
    }
  }
}

/** The configured provider; Stripe's SDK (35 MB resident once loaded) is loaded only when it is the one. */
export async function createPaymentProvider(env: Env): Promise<SandboxProvider | StripeProvider> {
  if (env.PAYMENT_PROVIDER === "stripe" && env.STRIPE_SECRET_KEY) {
    const { default: Stripe } = await import("stripe");
    const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
    const client = new Stripe(env.STRIPE_SECRET_KEY, {
      maxNetworkRetries: 1,
      ...(base
        ? {
            host: base.hostname,
            port: Number(base.port),
            protocol: base.protocol.replace(":", "") as "http" | "https",
          }
        : {}),
    });
    return new StripeProvider(client, env.STRIPE_WEBHOOK_SECRET);
  }
  return new SandboxProvider();
}
