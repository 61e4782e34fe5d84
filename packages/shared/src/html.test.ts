import { describe, expect, it } from "vitest";
import { jsonForScript } from "./html.ts";

describe("jsonForScript", () => {
  const hostile = {
    task_title: "</script><script>alert(1)</script>",
    task_detail: "<!-- <script> --> & \u2028 \u2029 </SCRIPT >",
    nested: [{ text: "a<b>c&d" }],
  };

  it("leaves no character that can end or change a script element", () => {
    const text = jsonForScript(JSON.stringify(hostile));
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain("\\u003c/script\\u003e");
  });

  it("parses back to the same value", () => {
    expect(JSON.parse(jsonForScript(JSON.stringify(hostile)))).toEqual(hostile);
  });
});
