import { describe, expect, it } from "vitest";
import { PASSWORD_RULE_MESSAGE } from "./constants.ts";
import { passwordSchema, registerFieldsSchema } from "./schemas.ts";

describe("passwordSchema", () => {
  it.each(["Abcdef", "aBcdef1", "XyzXyzXyz a"])("accepts %s", (password) => {
    expect(passwordSchema.safeParse(password).success).toBe(true);
  });

  it.each(["Abcde", "abcdef", "ABCDEF", "123456"])("refuses %s with the spec's message", (password) => {
    const result = passwordSchema.safeParse(password);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(PASSWORD_RULE_MESSAGE);
  });
});

describe("registerFieldsSchema", () => {
  const valid = { name: "Ann", role: "worker", email: "Ann@Example.com", password: "Secret1" };

  it("normalises the email", () => {
    expect(registerFieldsSchema.parse(valid).email).toBe("ann@example.com");
  });

  it("refuses the admin role", () => {
    expect(registerFieldsSchema.safeParse({ ...valid, role: "admin" }).success).toBe(false);
  });

  it("refuses a malformed email", () => {
    expect(registerFieldsSchema.safeParse({ ...valid, email: "not-an-email" }).success).toBe(false);
  });
});
