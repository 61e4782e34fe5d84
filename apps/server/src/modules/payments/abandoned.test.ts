import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Payment } from "@taskmint/shared";
import { payments } from "../../db/schema/index.ts";
import { registerUser, TestClock, twoServersPerFile, type RegisteredUser } from "../../test/harness.ts";
import { failAbandonedPurchases } from "./service.ts";

const clock = new TestClock();
const servers = twoServersPerFile(clock);

async function startPurchase(buyer: RegisteredUser): Promise<string> {
  const started = await servers.one.app.inject({
    method: "POST",
    url: "/api/payments",
    headers: { cookie: buyer.cookie },
    payload: { package_id: "coins-150" },
  });
  expect(started.statusCode, started.body).toBe(201);
  return started.json<{ payment: Payment }>().payment.id;
}

const statusOf = async (id: string) =>
  (
    await servers.one.db
      .select({ status: payments.status, reason: payments.failureReason })
      .from(payments)
      .where(eq(payments.id, id))
  )[0];

describe("abandoned purchases", () => {
  it("fail with the reason `abandoned` 24 hours after they started, once, whichever server runs the job", async () => {
    const buyer = await registerUser(servers.one.app, "buyer");
    const abandoned = await startPurchase(buyer);
    clock.advanceMs(23 * 60 * 60 * 1000);
    const recent = await startPurchase(buyer);
    const paid = await startPurchase(buyer);
    const confirmed = await servers.one.app.inject({
      method: "POST",
      url: `/api/payments/${paid}/sandbox-confirm`,
      headers: { cookie: buyer.cookie },
      payload: { card_number: "4242424242424242", exp_month: 12, exp_year: 2099, cvc: "123" },
    });
    expect(confirmed.json<Payment>().status).toBe("completed");

    expect(await failAbandonedPurchases(servers.one.db, clock.now())).toBe(0);
    clock.advanceMs(60 * 60 * 1000);
    const [byOne, byTwo] = await Promise.all([
      failAbandonedPurchases(servers.one.db, clock.now()),
      failAbandonedPurchases(servers.two.db, clock.now()),
    ]);
    expect(byOne + byTwo).toBe(1);

    expect(await statusOf(abandoned)).toEqual({ status: "failed", reason: "abandoned" });
    expect(await statusOf(recent)).toEqual({ status: "pending", reason: null });
    expect(await statusOf(paid)).toEqual({ status: "completed", reason: null });
    const shown = await servers.one.app.inject({
      method: "GET",
      url: `/api/payments/${abandoned}`,
      headers: { cookie: buyer.cookie },
    });
    expect(shown.json()).toMatchObject({ status: "failed", failure_reason: "abandoned" });
  });
});
