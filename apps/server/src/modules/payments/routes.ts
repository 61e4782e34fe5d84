import {
  COIN_PACKAGES,
  coinPackageSchema,
  idParamsSchema,
  pageOf,
  pageQuerySchema,
  paymentSchema,
  sandboxCardSchema,
  startedPaymentSchema,
  startPaymentSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { getUser } from "../users/service.ts";
import { SandboxProvider, StripeProvider } from "./providers.ts";
import {
  confirmSandboxPayment,
  confirmStripePayment,
  getPayment,
  listPayments,
  startPurchase,
  syncStripePayment,
} from "./service.ts";

const idParams = idParamsSchema("Unknown payment");

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider = app.payments;

  app.get(
    "/api/coin-packages",
    {
      schema: {
        tags: ["public"],
        summary: "The coin packages on sale (price in dollars)",
        response: { 200: z.array(coinPackageSchema) },
      },
    },
    () => [...COIN_PACKAGES],
  );

  app.post(
    "/api/payments",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Start buying a coin package",
        body: startPaymentSchema,
        response: { 201: startedPaymentSchema },
      },
    },
    async (request, reply) => {
      const user = await getUser(app.db, (await currentUser(request)).id);
      const { package_id: packageId } = request.body;
      const started = await startPurchase(app.db, { provider, buyer: user, packageId, now: app.clock() });
      return reply.status(201).send({
        ...started,
        provider: provider.name,
        publishable_key: provider.name === "stripe" ? (app.env.STRIPE_PUBLISHABLE_KEY ?? null) : null,
      });
    },
  );

  app.post(
    "/api/payments/:id/sandbox-confirm",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Pay with a test card (sandbox provider only)",
        params: idParams,
        body: sandboxCardSchema,
        response: { 200: paymentSchema },
      },
    },
    async (request) => {
      if (!(provider instanceof SandboxProvider))
        throw new AppError("NOT_FOUND", "The sandbox provider is not in use");
      const { id } = await currentUser(request);
      return confirmSandboxPayment(app.db, {
        sandbox: provider,
        buyerId: id,
        paymentId: request.params.id,
        card: request.body,
        now: app.clock(),
      });
    },
  );

  app.post(
    "/api/payments/:id/confirm",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Re-read a Stripe payment from Stripe after the browser confirmed it",
        params: idParams,
        response: { 200: paymentSchema },
      },
    },
    async (request) => {
      if (!(provider instanceof StripeProvider))
        throw new AppError("NOT_FOUND", "The Stripe provider is not in use");
      return confirmStripePayment(app.db, {
        stripe: provider,
        buyerId: (await currentUser(request)).id,
        paymentId: request.params.id,
        now: app.clock(),
      });
    },
  );

  app.get(
    "/api/payments/:id",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "One of your payments",
        params: idParams,
        response: { 200: paymentSchema },
      },
    },
    async (request) => getPayment(app.db, (await currentUser(request)).id, request.params.id),
  );

  app.get(
    "/api/payments",
    {
      preHandler: requireRole("buyer"),
      schema: {
        tags: ["buyer"],
        summary: "Your payment history, newest first",
        querystring: pageQuerySchema,
        response: { 200: pageOf(paymentSchema) },
      },
    },
    async (request) => listPayments(app.db, (await currentUser(request)).id, request.query),
  );

  // The webhook's signature covers the exact bytes sent, so this route keeps the raw body.
  await app.register(async (webhook) => {
    webhook.removeContentTypeParser("application/json");
    webhook.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
      done(null, body),
    );
    webhook.post(
      "/api/payments/webhook",
      {
        schema: {
          tags: ["payments"],
          summary: "Stripe's signed events (payment_intent.succeeded credits the coins)",
        },
      },
      async (request) => {
        if (!(provider instanceof StripeProvider))
          throw new AppError("NOT_FOUND", "The Stripe provider is not in use");
        const signature = request.headers["stripe-signature"];
        const event = provider.verifyEvent(
          request.body as Buffer,
          typeof signature === "string" ? signature : undefined,
        );
        if (
          event.type === "payment_intent.succeeded" ||
          event.type === "payment_intent.payment_failed" ||
          event.type === "payment_intent.canceled"
        ) {
          await syncStripePayment(app.db, {
            stripe: provider,
            providerPaymentId: event.data.object.id,
            now: app.clock(),
          });
        }
        return { received: true };
      },
    );
  });
};
