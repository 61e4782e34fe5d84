import type { AuditRecord } from "@taskmint/shared";
import { coinCount, formatDollars } from "../../lib/format.ts";

// The audit trail in sentences ("Ana overturned Bashir's rejection of Wendy's work on “Find 5
// emails”. 8 coins were paid from the task's escrow."): names and titles the list's joins
// resolved, never raw ids or key: value lists (those stay in the raw record).

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const count = (value: unknown): number | null => (typeof value === "number" ? value : null);
const quoted = (title: string | null) => (title ? `“${title}”` : "a task");
const possessive = (name: string) => `${name}’s`;

const PAID_FROM: Record<string, string> = {
  escrow: "the task’s escrow",
  buyer: "the buyer’s balance",
  platform: "the platform (the buyer could not pay)",
};

/** One audited action as a sentence or two. */
export function auditSentence(entry: AuditRecord): string {
  const { subject, before, after } = entry;
  const actor = entry.actor_name;
  // Rows gone since read as who they were: "the worker", "a task".
  const person = subject.user_name ?? (entry.action === "decide_appeal" ? "the worker" : "a former user");
  const buyer = subject.buyer_name ?? "the buyer";
  const task = quoted(subject.task_title);
  const withdrawal =
    subject.coins === null
      ? "withdrawal"
      : `withdrawal of ${coinCount(subject.coins)}${subject.amount_cents === null ? "" : ` (${formatDollars(subject.amount_cents / 100)})`}`;
  switch (entry.action) {
    case "change_role": {
      const from = text(before?.role);
      const to = text(after?.role);
      return from && to
        ? `${actor} changed ${possessive(person)} role from ${from} to ${to}.`
        : `${actor} changed ${possessive(person)} role.`;
    }
    case "delete_user": {
      const settled = count(after?.settled_coins) ?? 0;
      const refunded = count(after?.refunded_coins) ?? 0;
      const reference = text(after?.payout_reference);
      const coins =
        settled === 0
          ? "They had no coins left."
          : after?.coins === "payout"
            ? `${coinCount(settled)} ${settled === 1 ? "was" : "were"} paid out to them${reference ? ` under reference ${reference}` : ""}.`
            : `${coinCount(settled)} ${settled === 1 ? "was" : "were"} forfeited to the platform.`;
      const refunds =
        refunded > 0
          ? ` ${coinCount(refunded)} for their tasks’ open slots ${refunded === 1 ? "was" : "were"} refunded first.`
          : "";
      return `${actor} deleted ${possessive(person)} account. ${coins}${refunds}`;
    }
    case "delete_task": {
      const refunded = count(after?.refunded_coins) ?? 0;
      const which = subject.task_title
        ? `${subject.buyer_name ? `${possessive(subject.buyer_name)} task` : "the task"} ${task}`
        : "a task";
      return `${actor} deleted ${which}. ${
        refunded > 0
          ? `${coinCount(refunded)} ${refunded === 1 ? "was" : "were"} refunded to ${buyer}.`
          : "No coins were left to refund."
      }`;
    }
    case "approve_withdrawal": {
      const reference = text(after?.payout_reference);
      const risk = after?.confirmed_high_risk === true ? ", after confirming its high risk" : "";
      return `${actor} paid ${possessive(person)} ${withdrawal}${reference ? ` under reference ${reference}` : ""}${risk}.`;
    }
    case "reject_withdrawal": {
      const reason = text(after?.reason);
      return `${actor} rejected ${possessive(person)} ${withdrawal}${reason ? `, saying “${reason}”` : ""}. The coins went back to their balance.`;
    }
    case "decide_appeal": {
      const work = `${possessive(buyer)} rejection of ${possessive(person)} work on ${task}`;
      if (text(after?.appeal) === "overturned") {
        const coins = count(after?.coins);
        const from = PAID_FROM[text(after?.paid_from) ?? ""] ?? "escrow";
        return `${actor} overturned ${work}. ${coins === null ? "The worker was paid" : `${coinCount(coins)} ${coins === 1 ? "was" : "were"} paid`} from ${from}.`;
      }
      const answer = text(after?.answer);
      return `${actor} kept ${work}${answer ? `, answering “${answer}”` : ""}.`;
    }
  }
}
