import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client.ts";
import { ledgerAccounts, ledgerTransfers } from "../../db/schema/index.ts";
import { AppError } from "../../lib/errors.ts";
import { openTestDatabase, resetDatabase } from "../../test/harness.ts";
import {
  MINT,
  PAYOUT,
  PLATFORM_APPEAL_PAYMENT,
  balanceOf,
  checkLedger,
  escrowOf,
  holdOf,
  openAccount,
  transfer,
  walletOf,
} from "./service.ts";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(async () => {
  expect((await checkLedger(handle.db)).problems).toEqual([]);
  await handle.close();
});
beforeEach(() => resetDatabase(handle.db));

const ACCOUNTS = [MINT, PAYOUT, walletOf("a"), walletOf("b"), escrowOf("t"), holdOf("w")] as const;

async function openAll() {
  await openAccount(handle.db, { kind: "wallet", ownerKey: walletOf("a") });
  await openAccount(handle.db, { kind: "wallet", ownerKey: walletOf("b") });
  await openAccount(handle.db, { kind: "escrow", ownerKey: escrowOf("t") });
  await openAccount(handle.db, { kind: "hold", ownerKey: holdOf("w") });
}

describe("transfer", () => {
  it("keeps rule M3 over random sequences of transfers, and matches a simple model", async () => {
    const step = fc.record({
      from: fc.constantFrom(...ACCOUNTS),
      to: fc.constantFrom(...ACCOUNTS),
      amount: fc.integer({ min: 1, max: 500 }),
      // Few distinct keys, so repeats (which must be no-ops) happen often.
      key: fc.integer({ min: 0, max: 30 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        await resetDatabase(handle.db);
        await openAll();
        const model = new Map<string, number>(ACCOUNTS.map((account) => [account, 0]));
        const usedKeys = new Set<number>();
        for (const { from, to, amount, key } of steps) {
          if (from === to) continue;
          const expectApplied = !usedKeys.has(key);
          const sufficient = from === MINT || (model.get(from) ?? 0) >= amount;
          try {
            const result = await transfer(handle.db, { from, to, amount, idempotencyKey: `k${key}` });
            expect(result.applied).toBe(expectApplied);
            expect(!expectApplied || sufficient).toBe(true);
            if (result.applied) {
              usedKeys.add(key);
              model.set(from, (model.get(from) ?? 0) - amount);
              model.set(to, (model.get(to) ?? 0) + amount);
            }
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).code).toBe("INSUFFICIENT_COINS");
            expect(expectApplied && !sufficient).toBe(true);
          }
        }
        const report = await checkLedger(handle.db);
        expect(report.problems).toEqual([]);
        for (const account of ACCOUNTS) expect(await balanceOf(handle.db, account)).toBe(model.get(account));
      }),
      { numRuns: 40 },
    );
    // 40 runs of up to 25 transfers, each run on a reset database: 11 s on PGlite, and past the
    // suite's 30 s on a busy PostgreSQL, where the late transfers then broke the tests after it.
  }, 120_000);

  it("moves nothing when an idempotency key repeats", async () => {
    await openAll();
    const request = { from: MINT, to: walletOf("a"), amount: 50, idempotencyKey: "signup:a" };
    expect(await transfer(handle.db, request)).toEqual({ applied: true });
    expect(await transfer(handle.db, request)).toEqual({ applied: false });
    expect(await transfer(handle.db, { ...request, amount: 999 })).toEqual({ applied: false });
    expect(await balanceOf(handle.db, walletOf("a"))).toBe(50);
    expect(await handle.db.$count(ledgerTransfers)).toBe(1);
  });

  it("refuses to overdraw and leaves no trace of the attempt", async () => {
    await openAll();
    await transfer(handle.db, { from: MINT, to: walletOf("a"), amount: 100, idempotencyKey: "fund" });
    await expect(
      transfer(handle.db, {
        from: walletOf("a"),
        to: walletOf("b"),
        amount: 101,
        idempotencyKey: "too-much",
      }),
    ).rejects.toMatchObject({
      code: "INSUFFICIENT_COINS",
    });
    expect(await handle.db.$count(ledgerTransfers)).toBe(1);
    // The refused key was not spent: the same cause may succeed later.
    await transfer(handle.db, { from: MINT, to: walletOf("a"), amount: 1, idempotencyKey: "top-up" });
    expect(
      await transfer(handle.db, {
        from: walletOf("a"),
        to: walletOf("b"),
        amount: 101,
        idempotencyKey: "too-much",
      }),
    ).toEqual({ applied: true });
  });

  it("refuses amounts that are not positive integers", async () => {
    await openAll();
    for (const amount of [0, -5, 1.5, Number.NaN]) {
      await expect(
        transfer(handle.db, { from: MINT, to: walletOf("a"), amount, idempotencyKey: `bad${amount}` }),
      ).rejects.toThrow();
    }
    expect(await handle.db.$count(ledgerTransfers)).toBe(0);
  });

  it("has a database CHECK that no account but the mint goes below zero", async () => {
    await openAll();
    await expect(
      handle.db
        .update(ledgerAccounts)
        .set({ balance: -1 })
        .where(eq(ledgerAccounts.ownerKey, walletOf("a"))),
    ).rejects.toThrow();
    await handle.db.update(ledgerAccounts).set({ balance: -1 }).where(eq(ledgerAccounts.ownerKey, MINT));
    await handle.db.update(ledgerAccounts).set({ balance: 0 }).where(eq(ledgerAccounts.ownerKey, MINT));
  });

  it("serializes 20 parallel transfers of 200 from a 1,000 balance: exactly 5 succeed", async () => {
    await openAll();
    await transfer(handle.db, { from: MINT, to: walletOf("a"), amount: 1000, idempotencyKey: "fund" });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        transfer(handle.db, {
          from: walletOf("a"),
          to: holdOf("w"),
          amount: 200,
          idempotencyKey: `withdraw:${i}`,
        }),
      ),
    );
    const refused = results.filter((result) => result.status === "rejected");
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(5);
    for (const result of refused) expect(result.reason).toMatchObject({ code: "INSUFFICIENT_COINS" });
    expect(await balanceOf(handle.db, walletOf("a"))).toBe(0);
    expect(await balanceOf(handle.db, holdOf("w"))).toBe(1000);
  });

  it("does not deadlock when transfers cross between the same accounts in both directions", async () => {
    await openAll();
    await transfer(handle.db, { from: MINT, to: walletOf("a"), amount: 1000, idempotencyKey: "fund-a" });
    await transfer(handle.db, { from: MINT, to: walletOf("b"), amount: 1000, idempotencyKey: "fund-b" });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? transfer(handle.db, {
              from: walletOf("a"),
              to: walletOf("b"),
              amount: 10,
              idempotencyKey: `ab${i}`,
            })
          : transfer(handle.db, {
              from: walletOf("b"),
              to: walletOf("a"),
              amount: 10,
              idempotencyKey: `ba${i}`,
            }),
      ),
    );
    expect((await balanceOf(handle.db, walletOf("a"))) + (await balanceOf(handle.db, walletOf("b")))).toBe(
      2000,
    );
  });
});

describe("checkLedger", () => {
  it("sums the coins by where they are", async () => {
    await openAll();
    await transfer(handle.db, { from: MINT, to: walletOf("a"), amount: 300, idempotencyKey: "1" });
    await transfer(handle.db, { from: walletOf("a"), to: escrowOf("t"), amount: 100, idempotencyKey: "2" });
    await transfer(handle.db, { from: walletOf("a"), to: holdOf("w"), amount: 150, idempotencyKey: "3" });
    await transfer(handle.db, { from: holdOf("w"), to: PAYOUT, amount: 150, idempotencyKey: "4" });
    // An overturned appeal the platform paid (rule R22): issued, and counted as the platform's.
    await transfer(handle.db, {
      from: MINT,
      to: walletOf("a"),
      amount: 7,
      idempotencyKey: `${PLATFORM_APPEAL_PAYMENT}s`,
    });
    expect(await checkLedger(handle.db)).toEqual({
      ok: true,
      issued: 307,
      wallets: 57,
      escrow: 100,
      held: 0,
      paid_out: 150,
      platform_paid: 7,
      problems: [],
    });
  });

  it("reports a cached balance that drifted from its transfers", async () => {
    await openAll();
    await transfer(handle.db, { from: MINT, to: walletOf("a"), amount: 10, idempotencyKey: "1" });
    await handle.db.execute(
      sql`update ledger_accounts set balance = balance + 5 where owner_key = ${walletOf("a")}`,
    );
    const report = await checkLedger(handle.db);
    expect(report.ok).toBe(false);
    expect(report.problems).toContain("wallet:a caches 15 but its transfers sum to 10");
    expect(report.problems).toContain("balances sum to 5, not 0");
    await resetDatabase(handle.db);
  });
});
