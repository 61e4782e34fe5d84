import { describe, expect, it } from "vitest";
import type { AuditRecord } from "@taskmint/shared";
import { auditSentence } from "./auditSentence.ts";

const entry = (fields: Partial<AuditRecord>): AuditRecord => ({
  id: "a1",
  actor_name: "Ana",
  actor_email: "ana@example.com",
  action: "change_role",
  target_type: "user",
  target_id: "u1",
  before: null,
  after: null,
  created_at: "2026-11-26T10:00:00.000Z",
  subject: {
    user_name: null,
    user_deleted: false,
    task_title: null,
    buyer_name: null,
    coins: null,
    amount_cents: null,
  },
  ...fields,
});
const subject = (fields: Partial<AuditRecord["subject"]>) => ({ ...entry({}).subject, ...fields });
const KEY_VALUE = /\b\w+: \S/;

describe("the audit trail in sentences", () => {
  it("names the people, the task and where an overturn's coins came from", () => {
    const text = auditSentence(
      entry({
        action: "decide_appeal",
        target_type: "submission",
        after: { appeal: "overturned", status: "approved", paid_from: "escrow", coins: 8 },
        subject: subject({ user_name: "Wendy", buyer_name: "Bashir", task_title: "Find 5 emails" }),
      }),
    );
    expect(text).toBe(
      "Ana overturned Bashir’s rejection of Wendy’s work on “Find 5 emails”. 8 coins were paid from the task’s escrow.",
    );
  });

  it("reads every action without key: value lists, a missing person or task included", () => {
    const texts = [
      auditSentence(
        entry({
          before: { role: "worker" },
          after: { role: "buyer" },
          subject: subject({ user_name: "Wes" }),
        }),
      ),
      auditSentence(
        entry({
          action: "delete_user",
          after: { coins: "payout", settled_coins: 40, refunded_coins: 6, payout_reference: "TX9" },
          subject: subject({ user_name: "Wes", user_deleted: true }),
        }),
      ),
      auditSentence(entry({ action: "delete_task", after: { refunded_coins: 0 } })),
      auditSentence(
        entry({
          action: "reject_withdrawal",
          after: { status: "rejected", reason: "Wrong number: 017" },
          subject: subject({ user_name: "Wes", coins: 200, amount_cents: 1000 }),
        }),
      ),
      auditSentence(
        entry({
          action: "approve_withdrawal",
          after: { payout_reference: "BK1", confirmed_high_risk: true },
          subject: subject({ user_name: "Wes", coins: 200, amount_cents: 1000 }),
        }),
      ),
      auditSentence(entry({ action: "decide_appeal", after: { appeal: "upheld", answer: "No proof" } })),
    ];
    expect(texts).toEqual([
      "Ana changed Wes’s role from worker to buyer.",
      "Ana deleted Wes’s account. 40 coins were paid out to them under reference TX9. 6 coins for their tasks’ open slots were refunded first.",
      "Ana deleted a task. No coins were left to refund.",
      "Ana rejected Wes’s withdrawal of 200 coins ($10.00), saying “Wrong number: 017”. The coins went back to their balance.",
      "Ana paid Wes’s withdrawal of 200 coins ($10.00) under reference BK1, after confirming its high risk.",
      "Ana kept the buyer’s rejection of the worker’s work on a task, answering “No proof”.",
    ]);
    // The sentences' own words hold no key: value pair (a quoted reason may).
    for (const text of texts) expect(text.replace(/“[^”]*”/g, "“…”")).not.toMatch(KEY_VALUE);
  });
});
