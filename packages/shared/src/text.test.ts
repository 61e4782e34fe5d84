import { describe, expect, it } from "vitest";
import { characterCount, isCalendarDate, textSchema } from "./text.ts";

describe("textSchema", () => {
  const title = textSchema("Title", { max: 5 });

  it("trims and accepts storable text", () => {
    expect(title.parse("  Hello ")).toBe("Hello");
  });

  it.each(["a\u0000b", "\uD800", "x\uDC00", "\uDC00\uD800"])("refuses %j, naming the field", (value) => {
    const result = title.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/^Title must not contain/);
  });

  it("keeps surrogate pairs (emoji) and counts each as one character", () => {
    expect(title.parse("😀😀😀😀😀")).toBe("😀😀😀😀😀");
    expect(title.safeParse("😀😀😀😀😀😀").error?.issues[0]?.message).toBe(
      "Title must be at most 5 characters",
    );
    expect(characterCount("😀")).toBe(1);
  });

  it("says a blank required field is required", () => {
    expect(title.safeParse("   ").error?.issues[0]?.message).toBe("Title is required");
  });
});

describe("isCalendarDate", () => {
  it.each(["2099-02-28", "2096-02-29", "2099-12-31"])("accepts %s", (value) =>
    expect(isCalendarDate(value)).toBe(true),
  );
  it.each([
    "2099-02-29",
    "2099-02-30",
    "2099-04-31",
    "2099-13-01",
    "2099-00-01",
    "2099-1-01",
    "2099-01-01T00:00:00Z",
  ])("refuses %s", (value) => expect(isCalendarDate(value)).toBe(false));
});
