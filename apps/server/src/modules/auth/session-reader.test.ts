import { serializeSignedCookie } from "better-call";
import { describe, expect, it } from "vitest";
import { sessionTokenOf } from "./session-reader.ts";

// The session reader checks cookie signatures itself (decision 007) instead of asking the auth
// library; these cases sign with the library's own signer, so a change in how it signs fails here.
const SECRET = "test-secret-test-secret-test-secret-0000";
const COOKIE = "better-auth.session_token";

async function signedCookieHeader(token: string, secret: string): Promise<Headers> {
  const setCookie = await serializeSignedCookie(COOKIE, token, secret, { path: "/", httpOnly: true });
  return new Headers({ cookie: setCookie.split(";")[0] ?? "" });
}

describe("session cookie signatures", () => {
  it("reads the token from a cookie the auth library signed", async () => {
    for (const token of ["kqYxq2Zg7Tn2tW0p8dJm1c3rYb9vQe4L", "a", "token-with_odd.chars"]) {
      expect(sessionTokenOf(await signedCookieHeader(token, SECRET), SECRET)).toBe(token);
    }
  });

  it("refuses a cookie signed with another secret, unsigned, or with its signature altered", async () => {
    expect(
      sessionTokenOf(await signedCookieHeader("abc", "another-secret-another-secret-another-00"), SECRET),
    ).toBe(null);
    expect(sessionTokenOf(new Headers({ cookie: `${COOKIE}=abc` }), SECRET)).toBe(null);
    const signed = (await signedCookieHeader("abc", SECRET)).get("cookie") ?? "";
    const altered = signed.replace(/.(%3D)?$/, (end) => (end.startsWith("A") ? "B" : "A") + end.slice(1));
    expect(sessionTokenOf(new Headers({ cookie: altered }), SECRET)).toBe(null);
    expect(sessionTokenOf(new Headers(), SECRET)).toBe(null);
  });
});
