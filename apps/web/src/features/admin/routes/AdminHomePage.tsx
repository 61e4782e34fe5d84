import { useQuery } from "@tanstack/react-query";
import { Coins, DollarSign, ShieldAlert, ShieldCheck, ShoppingBag, Users } from "lucide-react";
import { Link } from "react-router";
import type { AdminStats } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { StatCards, type Stat } from "../../../components/ui/StatCards.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { coinCount, formatCoins, formatDollars } from "../../../lib/format.ts";
import { ActivityCharts } from "../components/ActivityCharts.tsx";
import { AuditTrail } from "../components/AuditTrail.tsx";
import { WithdrawalRequests } from "../components/WithdrawalRequests.tsx";
import { adminQueries } from "../queries.ts";

const STATS: Stat<AdminStats>[] = [
  { label: "Total workers", icon: Users, value: (stats) => stats.totalWorkers },
  { label: "Total buyers", icon: ShoppingBag, value: (stats) => stats.totalBuyers },
  { label: "Total coins", icon: Coins, value: (stats) => coinCount(stats.totalCoins) },
  { label: "Total payments", icon: DollarSign, value: (stats) => formatDollars(stats.totalPayments) },
];

function LedgerHealth() {
  const ledger = useQuery(adminQueries.ledger());
  if (ledger.isPending) return <Spinner label="Checking the ledger" />;
  if (ledger.isError)
    return <ErrorState message="Failed to check the ledger" onRetry={() => void ledger.refetch()} />;
  const report = ledger.data;
  return (
    <div role="status" className={`alert ${report.ok ? "alert-success" : "alert-error"} items-start`}>
      {report.ok ? <ShieldCheck aria-hidden="true" /> : <ShieldAlert aria-hidden="true" />}
      <div>
        <p className="font-semibold">{report.ok ? "Ledger balanced" : "Ledger problems found"}</p>
        <p className="text-sm">
          Issued {formatCoins(report.issued)} · in wallets {formatCoins(report.wallets)} · in escrow{" "}
          {formatCoins(report.escrow)} · held {formatCoins(report.held)} · paid out{" "}
          {formatCoins(report.paid_out)}
          {report.platform_paid > 0 && (
            <> · paid by the platform on overturned appeals {formatCoins(report.platform_paid)}</>
          )}
        </p>
        {report.problems.length > 0 && (
          <ul className="mt-2 list-disc pl-5 text-sm">
            {report.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

export function AdminHomePage() {
  const stats = useQuery(adminQueries.stats());
  return (
    <Page title="Admin home">
      <StatCards query={stats} errorMessage="Failed to fetch dashboard statistics" stats={STATS} />
      <h2 className="mb-3 mt-8 text-xl font-bold">Activity</h2>
      <ActivityCharts />
      <h2 className="mb-3 mt-8 text-xl font-bold">Ledger health</h2>
      <LedgerHealth />
      <div className="mb-3 mt-8 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-xl font-bold">Withdrawal requests</h2>
        <Link to={paths.dashboard.adminWithdrawals} className="link link-primary text-sm">
          Every withdrawal
        </Link>
      </div>
      <WithdrawalRequests status="pending" inSection />
      <h2 className="mb-3 mt-8 text-xl font-bold">Audit trail</h2>
      <AuditTrail />
    </Page>
  );
}
