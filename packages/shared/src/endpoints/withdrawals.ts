import { idParamsSchema, rejectionSchema } from "../common.ts";
import { defineEndpoint } from "../endpoint.ts";
import {
  withdrawalApprovalSchema,
  withdrawalListQuerySchema,
  withdrawalRequestSchema,
  withdrawalSchema,
} from "../money.ts";
import { pageOf, pageQuerySchema } from "../paging.ts";

const idParams = idParamsSchema("Unknown withdrawal");

/** A worker's withdrawals, and the admins' review of them. */
export const withdrawalsEndpoints = {
  requestWithdrawal: defineEndpoint({
    method: "POST",
    path: "/api/withdrawals",
    operationId: "requestWithdrawal",
    access: "worker",
    tags: ["worker"],
    summary: "Ask to withdraw coins; they are held at once",
    body: withdrawalRequestSchema,
    response: { 201: withdrawalSchema },
    errors: [403, 409],
  }),
  listMyWithdrawals: defineEndpoint({
    method: "GET",
    path: "/api/worker/withdrawals",
    operationId: "listMyWithdrawals",
    access: "worker",
    tags: ["worker"],
    summary: "Your withdrawals, newest first",
    query: pageQuerySchema,
    response: { 200: pageOf(withdrawalSchema) },
  }),
  cancelWithdrawal: defineEndpoint({
    method: "POST",
    path: "/api/withdrawals/:id/cancel",
    operationId: "cancelWithdrawal",
    access: "worker",
    tags: ["worker"],
    summary: "Cancel your pending withdrawal; the held coins return to your balance",
    params: idParams,
    response: { 200: withdrawalSchema },
    errors: [409],
  }),
  listWithdrawals: defineEndpoint({
    method: "GET",
    path: "/api/admin/withdrawals",
    operationId: "listWithdrawals",
    access: "admin",
    tags: ["admin"],
    summary:
      "Every withdrawal, newest first, by status and worker name or email; pending ones carry their risk",
    query: withdrawalListQuerySchema,
    response: { 200: pageOf(withdrawalSchema) },
  }),
  approveWithdrawal: defineEndpoint({
    method: "POST",
    path: "/api/admin/withdrawals/:id/approve",
    operationId: "approveWithdrawal",
    access: "admin",
    tags: ["admin"],
    summary: "Pay out a pending withdrawal under the reference it was paid with",
    description:
      "A high-risk withdrawal answers 409 RISK_CONFIRMATION_REQUIRED (with the risk) unless `confirm_high_risk` is true.",
    params: idParams,
    body: withdrawalApprovalSchema.nullish(),
    response: { 200: withdrawalSchema },
    errors: [409],
  }),
  rejectWithdrawal: defineEndpoint({
    method: "POST",
    path: "/api/admin/withdrawals/:id/reject",
    operationId: "rejectWithdrawal",
    access: "admin",
    tags: ["admin"],
    summary: "Refuse a pending withdrawal; the coins go back to the worker",
    params: idParams,
    body: rejectionSchema,
    response: { 200: withdrawalSchema },
    errors: [409],
  }),
};
