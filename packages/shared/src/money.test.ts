import { describe, expect, it } from "vitest";
import { withdrawalDollars, withdrawalRequestSchema } from "./money.ts";

describe("withdrawalRequestSchema", () => {
  const valid = { withdrawal_coin: 200, payment_system: "Bkash", account_number: "01712345678" };

  it("accepts a Bangladeshi mobile number for Bkash, Rocket and Nagad and an email for PayPal", () => {
    for (const system of ["Bkash", "Rocket", "Nagad"])
      expect(withdrawalRequestSchema.safeParse({ ...valid, payment_system: system }).success).toBe(true);
    expect(
      withdrawalRequestSchema.safeParse({
        ...valid,
        payment_system: "PayPal",
        account_number: "me@example.com",
      }).success,
    ).toBe(true);
  });

  it.each([
    ["Bkash", "0171234567"],
    ["Rocket", "02712345678"],
    ["Nagad", "me@example.com"],
    ["PayPal", "01712345678"],
  ])("refuses %s account %s", (system, account) => {
    const result = withdrawalRequestSchema.safeParse({
      ...valid,
      payment_system: system,
      account_number: account,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["account_number"]);
  });

  it("refuses fewer than 200 coins with the spec's message", () => {
    expect(
      withdrawalRequestSchema.safeParse({ ...valid, withdrawal_coin: 199 }).error?.issues[0]?.message,
    ).toBe("Minimum withdrawal is 200 coins");
  });
});

describe("withdrawalDollars", () => {
  it("is coins / 20 with two decimals", () => {
    expect(withdrawalDollars(200)).toBe(10);
    expect(withdrawalDollars(215)).toBe(10.75);
    expect(withdrawalDollars(201)).toBe(10.05);
  });
});
