import { createServer, type Server } from "node:http";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page, Payment, User } from "@taskmint/shared";
import { ledgerTransfers, notifications, payments } from "../../db/schema/index.ts";
import {
  registerUser,
  startTestApp,
  testAppPerFile,
  type RegisteredUser,
  type TestContext,
} from "../../test/harness.ts";

type Method = "GET" | "POST";
const callOn = (ctx: TestContext) => (method: Method, url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
const coinsOf = async (ctx: TestContext, who: RegisteredUser) =>
  (await callOn(ctx)("GET", "/api/me", who.cookie)).json<{ user: User }>().user.coins;

const card = (number: string) => ({
  card_number: number,
  exp_month: 12,
  exp_year: new Date().getUTCFullYear() + 2,
  cvc: "123",
});

/** The sandbox's card form submitted for a payment. */
const sandboxConfirm = (
  call: ReturnType<typeof callOn>,
  paymentId: string,
  cookie: string,
  cardNumber: string,
) => call("POST", `/api/payments/${paymentId}/sandbox-confirm`, cookie, card(cardNumber));

describe("sandbox provider", () => {
  let call: ReturnType<typeof callOn>;
  const ctx = testAppPerFile();
  beforeAll(async () => {
    call = callOn(ctx);
  });

  async function buy(buyer: RegisteredUser, packageId: string, cardNumber: string) {
    const started = await call("POST", "/api/payments", buyer.cookie, { package_id: packageId });
    expect(started.statusCode, started.body).toBe(201);
    const { payment } = started.json<{ payment: Payment }>();
    return sandboxConfirm(call, payment.id, buyer.cookie, cardNumber);
  }

  it("lists the four packages", async () => {
    expect((await call("GET", "/api/coin-packages")).json()).toEqual([
      { id: "coins-10", coins: 10, price: 1 },
      { id: "coins-150", coins: 150, price: 10 },
      { id: "coins-500", coins: 500, price: 20 },
      { id: "coins-1000", coins: 1000, price: 35 },
    ]);
  });

  it("credits the package's coins once for 4242 4242 4242 4242 and records the payment", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const paid = await buy(buyer, "coins-150", "4242 4242 4242 4242");
    expect(paid.json()).toMatchObject({
      status: "completed",
      coins: 150,
      amount: 10,
      buyer_email: buyer.email,
    });
    expect(await coinsOf(ctx, buyer)).toBe(200);
    const again = await sandboxConfirm(call, paid.json<Payment>().id, buyer.cookie, "4242424242424242");
    expect(again.statusCode).toBe(409);
    expect(await coinsOf(ctx, buyer)).toBe(200);
    const history = (await call("GET", "/api/payments", buyer.cookie)).json<Page<Payment>>();
    expect(history.items[0]).toMatchObject({ status: "completed", coins: 150 });
    expect(history.items[0]?.paymentId).toMatch(/^sbx_pi_/);
    expect((await call("GET", "/api/buyer/stats", buyer.cookie)).json()).toMatchObject({ totalPayments: 10 });
    expect(await ctx.db.$count(notifications, eq(notifications.userId, buyer.user.id))).toBe(1);
  });

  it.each([
    ["4000 0000 0000 0002", "Your card was declined."],
    ["4000 0000 0000 9995", "Your card has insufficient funds."],
  ])(
    "fails %s with the provider's message, credits nothing, shows failed in history",
    async (number, message) => {
      const buyer = await registerUser(ctx.app, "buyer");
      const transfersBefore = await ctx.db.$count(ledgerTransfers);
      const failed = await buy(buyer, "coins-500", number);
      expect(failed.statusCode).toBe(200);
      expect(failed.json()).toMatchObject({ status: "failed", failure_reason: message });
      expect(await coinsOf(ctx, buyer)).toBe(50);
      expect(await ctx.db.$count(ledgerTransfers)).toBe(transfersBefore);
      const history = (await call("GET", "/api/payments", buyer.cookie)).json<Page<Payment>>();
      expect(history.items[0]).toMatchObject({ status: "failed" });
    },
  );

  it("refuses a malformed card with 400 and leaves the payment pending for a corrected one", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const { payment } = (await call("POST", "/api/payments", buyer.cookie, { package_id: "coins-10" })).json<{
      payment: Payment;
    }>();
    const confirm = (body: object) =>
      call("POST", `/api/payments/${payment.id}/sandbox-confirm`, buyer.cookie, body);
    expect((await confirm({ ...card("4242424242424242"), cvc: "1" })).statusCode).toBe(400);
    expect((await confirm({ ...card("4242424242424242"), exp_month: 13 })).statusCode).toBe(400);
    expect((await confirm({ ...card("4242 4242") })).statusCode).toBe(400);
    expect(await coinsOf(ctx, buyer)).toBe(50);
    expect((await confirm(card("4242424242424242"))).json()).toMatchObject({ status: "completed" });
  });

  it.each([
    ["a card number that fails its check digit", card("4242 4242 4242 4241"), "Your card number is invalid."],
    [
      "an expired card",
      { ...card("4242424242424242"), exp_month: 1, exp_year: 2020 },
      "Your card's expiration date is in the past.",
    ],
  ])("fails the payment for %s, with the reason, and credits nothing", async (_name, refused, reason) => {
    const buyer = await registerUser(ctx.app, "buyer");
    const { payment } = (await call("POST", "/api/payments", buyer.cookie, { package_id: "coins-10" })).json<{
      payment: Payment;
    }>();
    const answer = await call("POST", `/api/payments/${payment.id}/sandbox-confirm`, buyer.cookie, refused);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ status: "failed", failure_reason: reason });
    const [stored] = await ctx.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(stored).toMatchObject({ status: "failed", failureReason: reason });
    expect(await coinsOf(ctx, buyer)).toBe(50);
    // A failed payment stays failed: the buyer starts a new purchase.
    expect((await sandboxConfirm(call, payment.id, buyer.cookie, "4242424242424242")).statusCode).toBe(409);
  });

  it("never lets the buyer choose coins or price; an unknown package is 400", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    expect(
      (await call("POST", "/api/payments", buyer.cookie, { package_id: "coins-999999" })).statusCode,
    ).toBe(400);
    expect(
      (await call("POST", "/api/payments", buyer.cookie, { package_id: "coins-10", coins: 100000, price: 0 }))
        .statusCode,
    ).toBe(400);
    expect(await ctx.db.$count(payments, eq(payments.buyerId, buyer.user.id))).toBe(0);
  });

  it("keeps payments private: another buyer cannot see or confirm them; workers cannot buy", async () => {
    const owner = await registerUser(ctx.app, "buyer");
    const other = await registerUser(ctx.app, "buyer");
    const { payment } = (await call("POST", "/api/payments", owner.cookie, { package_id: "coins-10" })).json<{
      payment: Payment;
    }>();
    expect((await call("GET", `/api/payments/${payment.id}`, other.cookie)).statusCode).toBe(404);
    expect((await sandboxConfirm(call, payment.id, other.cookie, "4242424242424242")).statusCode).toBe(404);
    const worker = await registerUser(ctx.app, "worker");
    expect((await call("POST", "/api/payments", worker.cookie, { package_id: "coins-10" })).statusCode).toBe(
      403,
    );
    expect(await coinsOf(ctx, owner)).toBe(50);
  });
});

/** A local stand-in for the Stripe API: just the PaymentIntent calls the server makes. */
function fakeStripeApi() {
  const intents = new Map<string, Record<string, unknown>>();
  let sequence = 0;
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://stripe.local");
      const reply = (status: number, json: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(json));
      };
      if (request.method === "POST" && url.pathname === "/v1/payment_intents") {
        const form = new URLSearchParams(body);
        sequence += 1;
        const id = `pi_test_${sequence}`;
        const intent = {
          id,
          object: "payment_intent",
          amount: Number(form.get("amount")),
          amount_received: 0,
          currency: form.get("currency"),
          status: "requires_payment_method",
          client_secret: `${id}_secret_abc`,
          metadata: { payment_id: form.get("metadata[payment_id]") },
          last_payment_error: null,
        };
        intents.set(id, intent);
        return reply(200, intent);
      }
      const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      const intent = match ? intents.get(match[1] ?? "") : undefined;
      if (request.method === "GET" && intent) return reply(200, intent);
      return reply(404, { error: { type: "invalid_request_error", message: "No such resource" } });
    });
  });
  return {
    intents,
    /** What Stripe does when the browser's card confirmation goes through. */
    succeed(id: string) {
      const intent = intents.get(id);
      if (intent) Object.assign(intent, { status: "succeeded", amount_received: intent.amount });
    },
    async start() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const address = server.address();
      return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("stripe provider", () => {
  const webhookSecret = "whsec_test_secret";
  const stripeApi = fakeStripeApi();
  const signer = new Stripe("sk_test_signer");
  let ctx: TestContext;
  let call: ReturnType<typeof callOn>;
  beforeAll(async () => {
    const apiBase = await stripeApi.start();
    ctx = await startTestApp({
      env: {
        STRIPE_SECRET_KEY: "sk_test_local",
        STRIPE_PUBLISHABLE_KEY: "pk_test_local",
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE: apiBase,
      },
    });
    call = callOn(ctx);
  });
  afterAll(async () => {
    await ctx.close();
    await stripeApi.stop();
  });

  function webhook(intentId: string, secret = webhookSecret) {
    const payload = JSON.stringify({
      id: `evt_${intentId}`,
      object: "event",
      type: "payment_intent.succeeded",
      data: { object: { id: intentId, object: "payment_intent", amount: 1 } },
    });
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret });
    return ctx.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      payload,
    });
  }

  async function startStripePurchase(buyer: RegisteredUser) {
    const started = await call("POST", "/api/payments", buyer.cookie, { package_id: "coins-500" });
    expect(started.statusCode, started.body).toBe(201);
    const body = started.json<{
      payment: Payment;
      provider: string;
      client_secret: string;
      publishable_key: string;
    }>();
    expect(body).toMatchObject({ provider: "stripe", publishable_key: "pk_test_local" });
    expect(body.client_secret).toMatch(/_secret_/);
    return body.payment;
  }

  it("refuses a webhook with a bad signature and credits nothing", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const payment = await startStripePurchase(buyer);
    stripeApi.succeed(payment.paymentId);
    const forged = await webhook(payment.paymentId, "whsec_wrong");
    expect(forged.statusCode).toBe(400);
    expect(await coinsOf(ctx, buyer)).toBe(50);
  });

  it("credits nothing for an event whose intent Stripe says has not succeeded", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const payment = await startStripePurchase(buyer);
    expect((await webhook(payment.paymentId)).statusCode).toBe(200);
    expect(await coinsOf(ctx, buyer)).toBe(50);
  });

  it("credits once for the same event delivered twice, and for confirm plus webhook", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const payment = await startStripePurchase(buyer);
    stripeApi.succeed(payment.paymentId);
    const answers = await Promise.all([
      webhook(payment.paymentId),
      webhook(payment.paymentId),
      call("POST", `/api/payments/${payment.id}/confirm`, buyer.cookie),
    ]);
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    expect(await webhook(payment.paymentId).then((answer) => answer.statusCode)).toBe(200);
    expect(await coinsOf(ctx, buyer)).toBe(550);
    expect((await call("GET", `/api/payments/${payment.id}`, buyer.cookie)).json()).toMatchObject({
      status: "completed",
      coins: 500,
    });
  });

  it("has no sandbox confirmation when Stripe is the provider", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const payment = await startStripePurchase(buyer);
    expect((await sandboxConfirm(call, payment.id, buyer.cookie, "4242424242424242")).statusCode).toBe(404);
    expect(await coinsOf(ctx, buyer)).toBe(50);
  });
});
