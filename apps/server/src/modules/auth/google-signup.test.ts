import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestContext } from "../../test/harness.ts";
import { getUser } from "../users/service.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

// Google itself is outside our walls: this drives the same creation path better-auth
// takes when a first-time Google user comes back from the consent screen.
async function createGoogleUser(email: string) {
  const auth = await ctx.app.auth.$context;
  return auth.internalAdapter.createOAuthUser(
    { email, name: "Gina Google", emailVerified: true, image: null },
    { providerId: "google", accountId: `google-${email}` },
  );
}

describe("first-time Google user (rule R1)", () => {
  it("becomes a buyer with 50 coins", async () => {
    const created = await createGoogleUser("gina@example.com");
    const user = await getUser(ctx.db, created.user.id);
    expect(user).toMatchObject({ email: "gina@example.com", role: "buyer", coins: 50 });
  });
});
