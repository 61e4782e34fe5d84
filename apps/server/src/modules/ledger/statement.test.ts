import { describe, expect, it } from "vitest";
import type { Submission, Withdrawal } from "@taskmint/shared";
import {
  expectChained,
  marketplaceTestFile,
  type RegisteredUser,
  registerUser,
  signInAdmin,
  statementPages,
} from "../../test/harness.ts";
import { MINT, transfer, walletOf } from "./service.ts";

const { ctx, buyCoins: buy, call, coinsOf, newTask, submit } = marketplaceTestFile();

/** A buyer's bonus of `coins` on the submission, under a fresh Idempotency-Key. */
const sendBonus = (buyer: RegisteredUser, submissionId: string, coins: number, keyPrefix: string) =>
  call(
    "POST",
    "/api/bonuses",
    buyer.cookie,
    { submission_id: submissionId, coins, message: "Thanks" },
    { "idempotency-key": `${keyPrefix}-${Date.now()}` },
  );

/** Every entry of the user's statement, newest first, paged `limit` at a time. */
const wholeStatement = (who: RegisteredUser, limit: number) => statementPages(ctx.app, who.cookie, limit);

describe("the coin statement (issue 19)", () => {
  it("names every movement of a buyer's and a worker's coins, with the other party and a balance that chains", async () => {
    const buyer = await registerUser(ctx.app, "buyer", { name: "Bashir" });
    const worker = await registerUser(ctx.app, "worker", { name: "Wafa" });
    const admin = await signInAdmin(ctx, "admin-statement@example.com");
    await buy(buyer, "coins-150");
    const task = await newTask(buyer, {
      task_title: "Rate 5 logos",
      required_workers: 3,
      payable_amount: 20,
    });
    const submission = (await submit(worker, task.id)).json<Submission>();
    expect(
      (await call("POST", `/api/submissions/${submission.id}/approve`, buyer.cookie)).statusCode,
    ).toBeLessThan(300);
    const bonus = await sendBonus(buyer, submission.id, 5, "statement");
    expect(bonus.statusCode, bonus.body).toBe(201);
    expect((await call("DELETE", `/api/tasks/${task.id}`, buyer.cookie)).statusCode).toBeLessThan(300);

    const buyerEntries = (await wholeStatement(buyer, 100)).flatMap((page) => page.items);
    expect(buyerEntries.map((entry) => [entry.kind, entry.amount])).toEqual([
      ["task_refund", 40],
      ["bonus_sent", -5],
      ["task_funded", -60],
      ["purchase", 150],
      ["sign_up_bonus", 50],
    ]);
    expect(buyerEntries[1]).toMatchObject({
      counterparty_name: "Wafa",
      task_id: task.id,
      description: 'Bonus for "Rate 5 logos"',
    });
    expect(buyerEntries[2]).toMatchObject({ description: 'Funded "Rate 5 logos"', task_id: task.id });
    expectChained(buyerEntries, await coinsOf(buyer));

    // The worker earns 40 and withdraws; a refused withdrawal comes back, and the next is paid.
    await transfer(ctx.db, {
      from: MINT,
      to: walletOf(worker.user.id),
      amount: 400,
      idempotencyKey: `test-top-up:${worker.user.id}`,
    });
    const bkash = { withdrawal_coin: 200, payment_system: "Bkash", account_number: "01712345678" };
    const refused = (await call("POST", "/api/withdrawals", worker.cookie, bkash)).json<Withdrawal>();
    await call("POST", `/api/admin/withdrawals/${refused.id}/reject`, admin.cookie, {
      reason: "Wrong number",
    });
    const paid = (await call("POST", "/api/withdrawals", worker.cookie, bkash)).json<Withdrawal>();
    await call("POST", `/api/admin/withdrawals/${paid.id}/approve`, admin.cookie, {
      payout_reference: "BK123",
    });

    const workerEntries = (await wholeStatement(worker, 2)).flatMap((page) => page.items);
    expect(workerEntries.map((entry) => [entry.kind, entry.amount])).toEqual([
      ["withdrawal", -200],
      ["withdrawal_returned", 200],
      ["withdrawal", -200],
      ["adjustment", 400],
      ["bonus_received", 5],
      ["earning", 20],
      ["sign_up_bonus", 10],
    ]);
    expect(workerEntries[0]?.description).toBe("Withdrawal ($10.00) to Bkash 01712345678: paid");
    expect(workerEntries[1]?.description).toBe("Withdrawal to Bkash 01712345678 refused: Wrong number");
    expect(workerEntries[2]?.description).toBe(
      "Withdrawal ($10.00) to Bkash 01712345678: refused, coins returned",
    );
    expect(workerEntries[5]).toMatchObject({
      counterparty_name: "Bashir",
      description: 'Approved work on "Rate 5 logos"',
    });
    expectChained(workerEntries, await coinsOf(worker));
  });

  it("pages newest first with no overlap or gap, at most `limit` entries a page", async () => {
    const worker = await registerUser(ctx.app, "worker");
    for (let index = 0; index < 11; index += 1) {
      await transfer(ctx.db, {
        from: MINT,
        to: walletOf(worker.user.id),
        amount: index + 1,
        idempotencyKey: `page-${worker.user.id}-${index}`,
      });
    }
    const whole = (await wholeStatement(worker, 100)).flatMap((page) => page.items);
    expect(whole).toHaveLength(12);
    for (const limit of [1, 5, 12]) {
      const pages = await wholeStatement(worker, limit);
      expect(pages.every((page) => page.items.length <= limit)).toBe(true);
      expect(pages).toHaveLength(Math.ceil(12 / limit));
      expect(pages.flatMap((page) => page.items)).toEqual(whole);
    }
    const ids = whole.map((entry) => Number(entry.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expectChained(whole, await coinsOf(worker));
  });

  it("shows each user only their own movements", async () => {
    const one = await registerUser(ctx.app, "worker");
    const other = await registerUser(ctx.app, "buyer");
    const mine = (await wholeStatement(one, 100)).flatMap((page) => page.items);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ kind: "sign_up_bonus", amount: 10, balance_after: 10 });
    expect((await wholeStatement(other, 100)).flatMap((page) => page.items)).toEqual([
      expect.objectContaining({ kind: "sign_up_bonus", amount: 50, balance_after: 50 }),
    ]);
    expect((await call("GET", "/api/me/statement")).statusCode).toBe(401);
    expect((await call("GET", "/api/me/statement.csv")).statusCode).toBe(401);
  });

  it.each([
    ["a cursor that is not one", "cursor=abc%00"],
    ["a cursor of junk", `cursor=${Buffer.from('{"value":"x","id":"1"}').toString("base64url")}`],
    ["a limit over 100", "limit=101"],
    ["a limit of 0", "limit=0"],
  ])("refuses %s with 400", async (_case, query) => {
    const worker = await registerUser(ctx.app, "worker");
    const response = await call("GET", `/api/me/statement?${query}`, worker.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: "VALIDATION" } });
  });

  it("downloads the whole statement as CSV, formulas made inert", async () => {
    const buyer = await registerUser(ctx.app, "buyer");
    const worker = await registerUser(ctx.app, "worker", { name: "=SUM(A1)" });
    const task = await newTask(buyer, {
      task_title: '=HYPERLINK("http://evil") "quoted", task',
      required_workers: 1,
      payable_amount: 3,
    });
    const submission = (await submit(worker, task.id)).json<Submission>();
    const bonus = await sendBonus(buyer, submission.id, 2, "csv");
    expect(bonus.statusCode, bonus.body).toBe(201);
    for (let index = 0; index < 120; index += 1) {
      await transfer(ctx.db, {
        from: MINT,
        to: walletOf(buyer.user.id),
        amount: 1,
        idempotencyKey: `csv-${buyer.user.id}-${index}`,
      });
    }
    const response = await call("GET", "/api/me/statement.csv", buyer.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="taskmint-statement-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = response.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe("date,kind,description,counterparty,task_id,amount,balance_after");
    // 120 top-ups, the bonus, the task's funding and the sign-up bonus: past the first page of 100.
    expect(lines).toHaveLength(1 + 123);
    // A name a spreadsheet would run as a formula starts with a quote.
    expect(lines.find((line) => line.includes(",bonus_sent,"))).toContain(",'=SUM(A1),");
    expect(lines).toContain(
      `${lines.find((line) => line.includes("task_funded"))?.split(",")[0]},task_funded,"Funded ""=HYPERLINK(""http://evil"") ""quoted"", task""",,${task.id},-3,47`,
    );
    expect(lines.at(-1)).toMatch(/,sign_up_bonus,Welcome bonus,,,50,50$/);
    expect(lines[1]).toMatch(new RegExp(`,adjustment,Adjustment by TaskMint,,,1,${await coinsOf(buyer)}$`));
  });
});
