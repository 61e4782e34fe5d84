import { ShieldAlert, ShieldCheck, ShieldQuestion } from "lucide-react";
import type { WithdrawalRisk } from "@taskmint/shared";

const RISK_STYLE = {
  low: { icon: ShieldCheck, badge: "badge-success", label: "Low risk" },
  medium: { icon: ShieldQuestion, badge: "badge-warning", label: "Medium risk" },
  high: { icon: ShieldAlert, badge: "badge-error", label: "High risk" },
} as const;

/** The fraud signals of a payout (a withdrawal, or coins paid out on deletion): the level, and the reasons behind it. */
export function RiskSummary({ risk }: { risk: WithdrawalRisk }) {
  const style = RISK_STYLE[risk.level];
  const Icon = style.icon;
  return (
    <div className="text-sm">
      <span className={`badge gap-1 ${style.badge}`}>
        <Icon className="size-3.5" aria-hidden="true" />
        {style.label}
      </span>
      {risk.reasons.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-left text-base-content/80">
          {risk.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
