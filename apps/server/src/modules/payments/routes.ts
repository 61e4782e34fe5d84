import { COIN_PACKAGES, paymentsEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { route } from "../../plugins/endpoint-route.ts";
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

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const provider = app.payments;

  route(app, endpoints.listCoinPackages, () => [...COIN_PACKAGES]);

  route(app, endpoints.startPayment, async (request) => {
    const user = await getUser(app.db, request.sessionUser.id);
    const { package_id: packageId } = request.body;
    const started = await startPurchase(app.db, { provider, buyer: user, packageId, now: request.now });
    return {
      ...started,
      provider: provider.name,
      publishable_key: provider.name === "stripe" ? (app.env.STRIPE_PUBLISHABLE_KEY ?? null) : null,
    };
  });

  route(app, endpoints.confirmSandboxPayment, (request) => {
    if (!(provider instanceof SandboxProvider))
      throw new AppError("NOT_FOUND", "The sandbox provider is not in use");
    const { id } = request.sessionUser;
    return confirmSandboxPayment(app.db, {
      sandbox: provider,
      buyerId: id,
      paymentId: request.params.id,
      card: request.body,
      now: request.now,
    });
  });

  route(app, endpoints.confirmPayment, (request) => {
    if (!(provider instanceof StripeProvider))
      throw new AppError("NOT_FOUND", "The Stripe provider is not in use");
    return confirmStripePayment(app.db, {
      stripe: provider,
      buyerId: request.sessionUser.id,
      paymentId: request.params.id,
      now: request.now,
    });
  });

  route(app, endpoints.getPayment, (request) =>
    getPayment(app.db, request.sessionUser.id, request.params.id),
  );

  route(app, endpoints.listMyPayments, (request) =>
    listPayments(app.db, request.sessionUser.id, request.query),
  );

  // The webhook's signature covers the exact bytes sent, so this route keeps the raw body.
  await app.register(async (webhook) => {
    webhook.removeContentTypeParser("application/json");
    webhook.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
      done(null, body),
    );
    route(webhook, endpoints.receivePaymentEvent, async (request) => {
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
          now: request.now,
        });
      }
      return { received: true };
    });
  });
};
