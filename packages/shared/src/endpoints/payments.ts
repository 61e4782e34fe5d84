import { z } from "zod";
import { idParamsSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import {
  coinPackageSchema,
  paymentSchema,
  sandboxCardSchema,
  startedPaymentSchema,
  startPaymentSchema,
} from "../money.ts";
import { pageOf, pageQuerySchema } from "../paging.ts";

const idParams = idParamsSchema("Unknown payment");

/** The coin packages, a buyer's payments, and the payment provider's events. */
export const paymentsEndpoints = {
  listCoinPackages: defineEndpoint({
    method: "GET",
    path: "/api/coin-packages",
    operationId: "listCoinPackages",
    access: "public",
    tags: ["public"],
    summary: "The coin packages on sale (price in dollars)",
    response: { 200: z.array(coinPackageSchema) },
  }),
  startPayment: defineEndpoint({
    method: "POST",
    path: "/api/payments",
    operationId: "startPayment",
    access: "buyer",
    tags: ["buyer"],
    summary: "Start buying a coin package",
    body: startPaymentSchema,
    response: { 201: startedPaymentSchema },
  }),
  confirmSandboxPayment: defineEndpoint({
    method: "POST",
    path: "/api/payments/:id/sandbox-confirm",
    operationId: "confirmSandboxPayment",
    access: "buyer",
    tags: ["buyer"],
    summary: "Pay with a test card (sandbox provider only)",
    params: idParams,
    body: sandboxCardSchema,
    response: { 200: paymentSchema },
    errors: [409],
  }),
  confirmPayment: defineEndpoint({
    method: "POST",
    path: "/api/payments/:id/confirm",
    operationId: "confirmPayment",
    access: "buyer",
    tags: ["buyer"],
    summary: "Re-read a Stripe payment from Stripe after the browser confirmed it",
    params: idParams,
    response: { 200: paymentSchema },
    errors: [409],
  }),
  getPayment: defineEndpoint({
    method: "GET",
    path: "/api/payments/:id",
    operationId: "getPayment",
    access: "buyer",
    tags: ["buyer"],
    summary: "One of your payments",
    params: idParams,
    response: { 200: paymentSchema },
  }),
  listMyPayments: defineEndpoint({
    method: "GET",
    path: "/api/payments",
    operationId: "listMyPayments",
    access: "buyer",
    tags: ["buyer"],
    summary: "Your payment history, newest first",
    query: pageQuerySchema,
    response: { 200: pageOf(paymentSchema) },
  }),
  /** Its body is the provider's signed bytes, read raw by the route, so no schema here. */
  receivePaymentEvent: defineEndpoint({
    method: "POST",
    path: "/api/payments/webhook",
    operationId: "receivePaymentEvent",
    access: "public",
    tags: ["payments"],
    summary: "Stripe's signed events (payment_intent.succeeded credits the coins)",
    errors: [400],
  }),
};
