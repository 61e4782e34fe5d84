import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Payment } from "@taskmint/shared";
import { payments } from "../../db/schema/index.ts";
import { registerUser, startTestApp, TestClock, type RegisteredUser, type TestContext } from "../../test/harness.ts";
import { failAbandonedPurchases } from "./service.ts";

const clock = new TestClock();
let one: TestContext;
let two: TestContext;
beforeAll(async () => {
  one = await startTestApp({ clock });
  two = await startTestApp({ clock, joining: one.handle });
});
afterAll(async () => {
  await two.close();
  await one.close();
});

async function startPurchase(buyer: RegisteredUser): Promise<string> {
  const started = await one.app.inject({ method: "POST", url: "/api/payments", headers: { cookie: buyer.cookie }, payload: { package_id: "coins-150" } });
  expect(started.statusCode, started.body).toBe(201);
  return started.json<{ payment: Payment }>().payment.id;
}

const statusOf = async (id: string) => (await one.db.select({ status: payments.status, reason: payments.failureReason }).from(payments).where(eq(payments.id, id)))[0];

describe("abandoned purchases", () => {
  it("fail with the reason `abandoned` 24 hours after they started, once, whichever server runs the job", async () => {
    const buyer = await registerUser(one.app, "buyer");
    const abandoned = await startPurchase(buyer);
    clock.advanceMs(23 * 60 * 60 * 1000);
    const recent = await startPurchase(buyer);
    const paid = await startPurchase(buyer);
    const confirmed = await one.app.inject({
      method: "POST",
      url: `/api/payments/${paid}/sandbox-confirm`,
      headers: { cookie: buyer.cookie },
      payload: { card_number: "4242424242424242", exp_month: 12, exp_year: 2099, cvc: "123" },
    });
    expect(confirmed.json<Payment>().status).toBe("completed");

    expect(await failAbandonedPurchases(one.db, clock.now())).toBe(0);
    clock.advanceMs(60 * 60 * 1000);
    const [byOne, byTwo] = await Promise.all([failAbandonedPurchases(one.db, clock.now()), failAbandonedPurchases(two.db, clock.now())]);
    expect(byOne + byTwo).toBe(1);

    expect(await statusOf(abandoned)).toEqual({ status: "failed", reason: "abandoned" });
    expect(await statusOf(recent)).toEqual({ status: "pending", reason: null });
    expect(await statusOf(paid)).toEqual({ status: "completed", reason: null });
    const shown = await one.app.inject({ method: "GET", url: `/api/payments/${abandoned}`, headers: { cookie: buyer.cookie } });
    expect(shown.json()).toMatchObject({ status: "failed", failure_reason: "abandoned" });
  });
});
