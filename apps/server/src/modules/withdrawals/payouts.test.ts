import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Page, Submission, Withdrawal } from "@taskmint/shared";
import { auditLog, users, withdrawals } from "../../db/schema/index.ts";
import {
  marketplaceTestFile,
  type RegisteredUser,
  registerUser,
  sessionCookie,
  signIn,
  signInAdmin,
  workerWithCoins,
} from "../../test/harness.ts";
import { balanceOf, holdOf, MINT, PAYOUT, transfer, walletOf } from "../ledger/service.ts";
import { assessRisk, RISK_RULES, type RiskFacts } from "./risk.ts";

const { ctx, buyCoins: buy, call, coinsOf, newTask, submit } = marketplaceTestFile();

const bkash = (coins: number) => ({
  withdrawal_coin: coins,
  payment_system: "Bkash",
  account_number: "01712345678",
});
const admin = () => signInAdmin(ctx, "admin-payouts@example.com");

const workerWith = (coins: number, name?: string) => workerWithCoins(ctx, coins, name ? { name } : {});

async function withdraw(worker: RegisteredUser, coins: number) {
  const response = await call("POST", "/api/withdrawals", worker.cookie, bkash(coins));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Withdrawal>();
}

const statusOf = async (id: string) =>
  (await ctx.db.select({ status: withdrawals.status }).from(withdrawals).where(eq(withdrawals.id, id)))[0]
    ?.status;

describe("a worker cancels a pending withdrawal (issue 19)", () => {
  it("returns the held coins once, shows it on the timeline, and leaves nothing to decide", async () => {
    const worker = await workerWith(300);
    const withdrawal = await withdraw(worker, 250);
    expect(await coinsOf(worker)).toBe(50);
    const cancelled = await call("POST", `/api/withdrawals/${withdrawal.id}/cancel`, worker.cookie);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const body = cancelled.json<Withdrawal>();
    expect(body).toMatchObject({ status: "cancelled", payout_reference: null });
    expect(body.events).toEqual([
      { status: "pending", at: withdrawal.withdraw_date },
      { status: "cancelled", at: body.decided_at },
    ]);
    expect(await coinsOf(worker)).toBe(300);
    expect(await balanceOf(ctx.db, holdOf(withdrawal.id))).toBe(0);
    const { cookie } = await admin();
    for (const again of [
      await call("POST", `/api/withdrawals/${withdrawal.id}/cancel`, worker.cookie),
      await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, cookie, {
        payout_reference: "X1",
      }),
      await call("POST", `/api/admin/withdrawals/${withdrawal.id}/reject`, cookie, { reason: "Late" }),
    ]) {
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: { code: "ALREADY_DECIDED" } });
    }
    expect(await coinsOf(worker)).toBe(300);
    const history = (await call("GET", "/api/worker/withdrawals", worker.cookie)).json<Page<Withdrawal>>();
    expect(history.items).toEqual([body]);
  });

  it("is the worker's own: another worker and an unknown id read 404, a buyer 403, nobody 401", async () => {
    const worker = await workerWith(200);
    const withdrawal = await withdraw(worker, 200);
    const other = await registerUser(ctx.app, "worker");
    const buyer = await registerUser(ctx.app, "buyer");
    expect((await call("POST", `/api/withdrawals/${withdrawal.id}/cancel`, other.cookie)).statusCode).toBe(
      404,
    );
    expect((await call("POST", `/api/withdrawals/${randomUUID()}/cancel`, worker.cookie)).statusCode).toBe(
      404,
    );
    expect((await call("POST", `/api/withdrawals/${withdrawal.id}/cancel`, buyer.cookie)).statusCode).toBe(
      403,
    );
    expect((await call("POST", `/api/withdrawals/${withdrawal.id}/cancel`)).statusCode).toBe(401);
    expect((await call("POST", "/api/withdrawals/not%00an-id/cancel", worker.cookie)).statusCode).toBe(400);
    expect(await statusOf(withdrawal.id)).toBe("pending");
    expect(await coinsOf(worker)).toBe(0);
  });

  it("races an admin's approval: exactly one wins, and the coins end in one place", async () => {
    const { cookie } = await admin();
    for (let round = 0; round < 5; round += 1) {
      const worker = await workerWith(200);
      const withdrawal = await withdraw(worker, 200);
      const paidBefore = await balanceOf(ctx.db, PAYOUT);
      const answers = await Promise.all([
        call("POST", `/api/withdrawals/${withdrawal.id}/cancel`, worker.cookie),
        call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, cookie, {
          payout_reference: `R${round}`,
        }),
        call("POST", `/api/withdrawals/${withdrawal.id}/cancel`, worker.cookie),
      ]);
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(2);
      const status = await statusOf(withdrawal.id);
      expect(await coinsOf(worker)).toBe(status === "cancelled" ? 200 : 0);
      expect(await balanceOf(ctx.db, PAYOUT)).toBe(paidBefore + (status === "approved" ? 200 : 0));
      expect(await balanceOf(ctx.db, holdOf(withdrawal.id))).toBe(0);
    }
  });
});

describe("payout references and the admins' list of every withdrawal (issue 19)", () => {
  it("records the reference on approval, in the answer, the worker's history and the audit trail", async () => {
    const { cookie } = await admin();
    const worker = await workerWith(200);
    const withdrawal = await withdraw(worker, 200);
    const approved = await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, cookie, {
      payout_reference: "  8N7A6B5C4D  ",
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<Withdrawal>()).toMatchObject({ status: "approved", payout_reference: "8N7A6B5C4D" });
    expect(approved.json<Withdrawal>().events.map((event) => event.status)).toEqual(["pending", "approved"]);
    const history = (await call("GET", "/api/worker/withdrawals", worker.cookie)).json<Page<Withdrawal>>();
    expect(history.items[0]?.payout_reference).toBe("8N7A6B5C4D");
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, withdrawal.id), eq(auditLog.action, "approve_withdrawal")));
    expect(audit?.after).toEqual({ status: "approved", payout_reference: "8N7A6B5C4D" });
  });

  it.each([
    ["a NUL byte", { payout_reference: "BK\u0000123" }],
    ["an empty reference", { payout_reference: "   " }],
    ["a reference over 100 characters", { payout_reference: "x".repeat(101) }],
    ["a number", { payout_reference: 12345 }],
    ["an unknown field", { payout_reference: "BK1", amount: 1 }],
    ["a confirmation that is not a boolean", { confirm_high_risk: "yes" }],
  ])("refuses %s with 400 and pays nothing", async (_case, body) => {
    const { cookie } = await admin();
    const worker = await workerWith(200);
    const withdrawal = await withdraw(worker, 200);
    const response = await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, cookie, body);
    expect(response.statusCode).toBe(400);
    expect(await statusOf(withdrawal.id)).toBe("pending");
    expect(await balanceOf(ctx.db, holdOf(withdrawal.id))).toBe(200);
  });

  it("filters by status, searches by worker name or email, and pages with no overlap or gap", async () => {
    const { cookie } = await admin();
    const tag = `Zebra${Date.now()}`;
    const made: Withdrawal[] = [];
    for (let index = 0; index < 5; index += 1) {
      const worker = await workerWith(200, `${tag} worker ${index}`);
      made.push(await withdraw(worker, 200));
    }
    const other = await workerWith(200, "Somebody Else");
    const othersWithdrawal = await withdraw(other, 200);
    await call(
      "POST",
      `/api/withdrawals/${made[0]?.id}/cancel`,
      sessionCookie(await signIn(ctx.app, made[0]?.worker_email ?? "", "Secret12")),
    );
    const list = async (query: string) => {
      const response = await call("GET", `/api/admin/withdrawals?${query}`, cookie);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Page<Withdrawal>>();
    };
    const all = await list(`q=${tag.toLowerCase()}&limit=100`);
    expect(all.total).toBe(5);
    expect(all.items.map((item) => item.id)).toEqual(made.map((item) => item.id).reverse());
    const pages = [
      await list(`q=${tag}&limit=2&page=1`),
      await list(`q=${tag}&limit=2&page=2`),
      await list(`q=${tag}&limit=2&page=3`),
    ];
    expect(pages.map((page) => page.items.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(
      all.items.map((item) => item.id),
    );
    expect((await list(`q=${tag}&status=cancelled`)).items.map((item) => item.id)).toEqual([made[0]?.id]);
    expect((await list(`q=${tag}&status=pending`)).total).toBe(4);
    // By email, and a % or _ in the search matches only itself.
    expect(
      (await list(`q=${encodeURIComponent(othersWithdrawal.worker_email)}`)).items.map((item) => item.id),
    ).toEqual([othersWithdrawal.id]);
    expect((await list(`q=${encodeURIComponent(`${tag}%`)}`)).total).toBe(0);
    expect((await list("q=_")).total).toBe(0);
    // Only pending withdrawals carry a risk.
    expect(all.items.map((item) => item.risk !== undefined)).toEqual([true, true, true, true, false]);
    for (const bad of ["status=paid", "q=%00", `q=${"x".repeat(101)}`]) {
      expect((await call("GET", `/api/admin/withdrawals?${bad}`, cookie)).statusCode).toBe(400);
    }
  });
});

/** Light My Request's own User-Agent, which every request of these tests sends unless told otherwise. */
const TEST_BROWSER = "lightMyRequest";
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** The first request of a session, from this address, device and browser: what the signals record. */
async function seenAt(who: { cookie: string }, ip: string, device: string, browser = TEST_BROWSER) {
  const response = await ctx.app.inject({
    method: "GET",
    url: "/api/me",
    remoteAddress: ip,
    headers: {
      // In place of the device cookie the sign-up set.
      cookie: `${who.cookie.replace(/tm_device=[^;]*(; )?/, "")}; tm_device=${device}`,
      "user-agent": browser,
    },
  });
  expect(response.statusCode).toBe(200);
}

/** The buyer posts a one-slot task paying `coins`, the worker does it, the buyer approves. */
async function paidBy(buyer: RegisteredUser, worker: RegisteredUser, coins: number) {
  const task = await newTask(buyer, { required_workers: 1, payable_amount: coins });
  const submission = (await submit(worker, task.id)).json<Submission>();
  expect((await call("POST", `/api/submissions/${submission.id}/approve`, buyer.cookie)).statusCode).toBe(
    200,
  );
}

const ageAccount = (who: RegisteredUser, days: number) =>
  ctx.db
    .update(users)
    .set({ createdAt: sql`now() - make_interval(days => ${days})` })
    .where(eq(users.id, who.user.id));

describe("fraud signals on withdrawals (issue 19)", () => {
  it("scores the self-dealing pattern high and pays it only on a second confirmation", async () => {
    const { cookie } = await admin();
    const device = randomUUID();
    const buyer = await registerUser(ctx.app, "buyer", { name: "Bulk Buyer" });
    const worker = await registerUser(ctx.app, "worker", { name: "Own Worker" });
    await seenAt(buyer, "203.0.113.7", device);
    await seenAt(worker, "203.0.113.7", device);
    await buy(buyer, "coins-1000");
    await paidBy(buyer, worker, 600);
    const withdrawal = await withdraw(worker, 600);
    const listed = (await call("GET", "/api/admin/withdrawals?status=pending&limit=100", cookie)).json<
      Page<Withdrawal>
    >();
    const risk = listed.items.find((item) => item.id === withdrawal.id)?.risk;
    expect(risk?.level).toBe("high");
    expect(risk?.reasons).toEqual([
      "Signed up from the same address as buyer Bulk Buyer, who paid them 600 coins",
      "Signed in from the same address with the same browser as buyer Bulk Buyer, who paid them 600 coins",
      "Signed in on the same device as buyer Bulk Buyer, who paid them 600 coins",
      "100% of their earnings (600 of 600 coins) came from one buyer, Bulk Buyer",
      "Bulk Buyer bought 1,000 coins less than an hour before this request",
      "The account is less than a day old",
    ]);
    const refused = await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, cookie, {
      payout_reference: "BK1",
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: { code: "RISK_CONFIRMATION_REQUIRED", details: { risk } },
    });
    expect(await statusOf(withdrawal.id)).toBe("pending");
    expect(await balanceOf(ctx.db, holdOf(withdrawal.id))).toBe(600);
    // Refusing needs no confirmation; paying does, and the audit trail says it was confirmed.
    const paid = await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, cookie, {
      payout_reference: "BK1",
      confirm_high_risk: true,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, withdrawal.id), eq(auditLog.action, "approve_withdrawal")));
    expect(audit?.after).toEqual({ status: "approved", payout_reference: "BK1", confirmed_high_risk: true });
  });

  it("scores an honest worker low: an old account paid by five unrelated buyers", async () => {
    const { cookie } = await admin();
    const worker = await registerUser(ctx.app, "worker", { name: "Honest Worker" });
    await seenAt(worker, "198.51.100.1", randomUUID());
    await ageAccount(worker, 40);
    for (let index = 0; index < 5; index += 1) {
      const buyer = await registerUser(ctx.app, "buyer");
      await seenAt(buyer, `198.51.100.${10 + index}`, randomUUID());
      await paidBy(buyer, worker, 45);
    }
    const withdrawal = await withdraw(worker, 200);
    const listed = (
      await call("GET", `/api/admin/withdrawals?q=${encodeURIComponent(worker.email)}`, cookie)
    ).json<Page<Withdrawal>>();
    expect(listed.items.map((item) => [item.id, item.risk])).toEqual([
      [withdrawal.id, { level: "low", reasons: [] }],
    ]);
    const paid = await call("POST", `/api/admin/withdrawals/${withdrawal.id}/approve`, cookie, {
      payout_reference: "PP-1",
    });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it("ignores shared private and loopback addresses, and counts accounts from one public address", async () => {
    const { cookie } = await admin();
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker", { name: "Office Worker" });
    await seenAt(buyer, "192.168.1.20", randomUUID());
    await seenAt(worker, "192.168.1.20", randomUUID());
    await ageAccount(worker, 40);
    await paidBy(buyer, worker, 40);
    const first = await withdraw(await topped(worker, 200), 200);
    const risk = async (id: string) =>
      (await call("GET", `/api/admin/withdrawals?q=${encodeURIComponent(worker.email)}&limit=100`, cookie))
        .json<Page<Withdrawal>>()
        .items.find((item) => item.id === id)?.risk;
    // 40 coins from one buyer is below the least earnings that say anything.
    expect(await risk(first.id)).toEqual({ level: "low", reasons: [] });

    const farmer = await registerUser(ctx.app, "worker", { name: "Farm Worker" });
    await seenAt(farmer, "203.0.113.99", randomUUID());
    await ageAccount(farmer, 40);
    for (let index = 1; index < RISK_RULES.accountsPerAddress; index += 1) {
      await seenAt(await registerUser(ctx.app, "worker"), "203.0.113.99", randomUUID());
    }
    const farmed = await withdraw(await topped(farmer, 200), 200);
    const farmedRisk = (
      await call("GET", `/api/admin/withdrawals?q=${encodeURIComponent(farmer.email)}`, cookie)
    ).json<Page<Withdrawal>>().items[0]?.risk;
    expect(farmed.id).toBeDefined();
    expect(farmedRisk).toEqual({
      level: "medium",
      reasons: [`${RISK_RULES.accountsPerAddress} accounts signed up from their sign-up address`],
    });
  });
});

describe("risk signals a client cannot erase (issue 31)", () => {
  let pairs = 0;
  /**
   * A buyer and a worker who signed up from different public addresses (each pair its own); later
   * the worker, the device cookie cleared, signs in again (a new session, a new device id) from
   * the buyer's address or another, in `browser`. The buyer paid them 50 coins (too little for
   * the earnings signals) and the worker's account is old: what is left is what the server saw.
   */
  async function afterClearedCookies(from: "the buyer's address" | "another address", browser: string) {
    pairs += 1;
    const buyersAddress = `198.51.100.${100 + pairs}`;
    const buyer = await registerUser(ctx.app, "buyer", { name: "Cookie Buyer" });
    await seenAt(buyer, buyersAddress, randomUUID(), FIREFOX);
    const worker = await registerUser(ctx.app, "worker");
    await seenAt(worker, `203.0.113.${100 + pairs}`, randomUUID(), FIREFOX);
    await ageAccount(worker, 40);
    await paidBy(buyer, worker, 50);
    const again = await signIn(ctx.app, worker.email, worker.password);
    expect(again.statusCode).toBe(200);
    const address = from === "the buyer's address" ? buyersAddress : `192.0.2.${100 + pairs}`;
    await seenAt({ cookie: sessionCookie(again) }, address, randomUUID(), browser);
    const withdrawal = await withdraw(await topped(worker, 200), 200);
    const { cookie } = await admin();
    return (await call("GET", `/api/admin/withdrawals?q=${encodeURIComponent(worker.email)}`, cookie))
      .json<Page<Withdrawal>>()
      .items.find((item) => item.id === withdrawal.id)?.risk;
  }

  it("keeps the buyer's address and browser as a signal when the worker clears the device cookie", async () => {
    expect(await afterClearedCookies("the buyer's address", FIREFOX)).toEqual({
      level: "high",
      reasons: [
        "Signed in from the same address with the same browser as buyer Cookie Buyer, who paid them 50 coins",
      ],
    });
  });

  it("names the shared address alone when the browsers differ", async () => {
    expect(await afterClearedCookies("the buyer's address", CHROME)).toEqual({
      level: "high",
      reasons: ["Signed in from the same address as buyer Cookie Buyer, who paid them 50 coins"],
    });
  });

  it("reads nothing into the same browser at another address", async () => {
    expect(await afterClearedCookies("another address", FIREFOX)).toEqual({ level: "low", reasons: [] });
  });
});

async function topped(worker: RegisteredUser, coins: number) {
  await transfer(ctx.db, {
    from: MINT,
    to: walletOf(worker.user.id),
    amount: coins,
    idempotencyKey: `topped:${worker.user.id}:${randomUUID()}`,
  });
  return worker;
}

describe("the risk levels (decision 017)", () => {
  const honest: RiskFacts = {
    accountAgeDays: 30,
    totalEarned: 1000,
    accountsFromSignUpAddress: 1,
    payers: [],
  };
  const payer = (coins: number, extra: Partial<RiskFacts["payers"][number]> = {}) => ({
    name: "B",
    coins,
    sharesSignUpAddress: false,
    sharesSignInAddress: false,
    sharesBrowserAtAddress: false,
    sharesDevice: false,
    hoursFromPurchase: null,
    boughtCoins: 0,
    ...extra,
  });

  it("marks a main buyer at exactly 80% and not at 79%", () => {
    expect(assessRisk({ ...honest, payers: [payer(800), payer(200)] }).level).toBe("medium");
    expect(assessRisk({ ...honest, payers: [payer(790), payer(210)] })).toEqual({
      level: "low",
      reasons: [],
    });
    expect(assessRisk({ ...honest, totalEarned: 99, payers: [payer(99)] }).level).toBe("low");
  });

  it("reads a purchase up to 72 hours before the request as fast, and only for the main buyer", () => {
    const fast = assessRisk({
      ...honest,
      payers: [payer(1000, { hoursFromPurchase: 72, boughtCoins: 1000 })],
    });
    expect(fast.reasons).toEqual([
      "100% of their earnings (1000 of 1,000 coins) came from one buyer, B",
      "B bought 1,000 coins 72 h before this request",
    ]);
    expect(
      assessRisk({ ...honest, payers: [payer(1000, { hoursFromPurchase: 73, boughtCoins: 1000 })] }).reasons,
    ).toHaveLength(1);
  });

  it("is high on any link to a paying buyer, or on three other signals together", () => {
    expect(assessRisk({ ...honest, payers: [payer(10, { sharesDevice: true })] }).level).toBe("high");
    expect(assessRisk({ ...honest, payers: [payer(10, { sharesSignUpAddress: true })] }).level).toBe("high");
    expect(assessRisk({ ...honest, payers: [payer(10, { sharesSignInAddress: true })] }).level).toBe("high");
    expect(
      assessRisk({
        ...honest,
        payers: [payer(10, { sharesSignInAddress: true, sharesBrowserAtAddress: true })],
      }).level,
    ).toBe("high");
    // The sign-up address is where the account first signed in: one reason, not two.
    expect(
      assessRisk({ ...honest, payers: [payer(10, { sharesSignUpAddress: true, sharesSignInAddress: true })] })
        .reasons,
    ).toEqual(["Signed up from the same address as buyer B, who paid them 10 coins"]);
    const young = { ...honest, accountAgeDays: 6 };
    expect(assessRisk(young).reasons).toEqual(["The account is 6 days old"]);
    expect(assessRisk({ ...young, accountAgeDays: 7 }).level).toBe("low");
    expect(assessRisk({ ...young, accountsFromSignUpAddress: 3, payers: [payer(1000)] }).level).toBe("high");
    expect(assessRisk({ ...young, accountsFromSignUpAddress: 3 }).level).toBe("medium");
  });
});
