import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Coins, DollarSign, ShieldAlert, ShieldCheck, ShoppingBag, Users } from "lucide-react";
import { useState } from "react";
import { toast } from "react-toastify";
import { rejectionSchema, type AdminStats, type Rejection, type Withdrawal } from "@taskmint/shared";
import { Field, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormModal } from "../../../components/form/FormModal.tsx";
import { DecisionButtons } from "../../../components/ui/DecisionButtons.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { StatCards, type Stat } from "../../../components/ui/StatCards.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { coinCount, formatCoins, formatDollars } from "../../../lib/format.ts";
import { WithdrawalCells } from "../../coins/components/WithdrawalCells.tsx";
import { ActivityCharts } from "../components/ActivityCharts.tsx";
import { AuditTrail } from "../components/AuditTrail.tsx";
import { useDecideWithdrawal } from "../api.ts";
import { adminQueries } from "../queries.ts";
import { When } from "../../../components/ui/When.tsx";

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

function RejectWithdrawalModal({ withdrawal, onClose }: { withdrawal: Withdrawal; onClose: () => void }) {
  const decide = useDecideWithdrawal();
  const form = useZodForm(rejectionSchema, { reason: "" });
  const reject = async ({ reason }: Rejection) => {
    await decide.mutateAsync({ id: withdrawal.id, approve: false, reason });
    toast.success("Withdrawal rejected; the coins went back to the worker");
    onClose();
  };
  return (
    <FormModal
      form={form}
      onSubmit={reject}
      onError={(error) => toast.error(errorMessage(error, "Failed to reject withdrawal"))}
      title={`Reject ${withdrawal.worker_name}'s withdrawal`}
      onClose={onClose}
      actions={<SubmitButton className="btn btn-error">Reject withdrawal</SubmitButton>}
    >
      <Field
        as="textarea"
        name="reason"
        id="withdrawal-reason"
        label="Reason (the worker will see it)"
        rows={3}
        autoFocus
      />
    </FormModal>
  );
}

function PendingWithdrawals() {
  const decide = useDecideWithdrawal();
  const [rejecting, setRejecting] = useState<Withdrawal | null>(null);

  const approve = (withdrawal: Withdrawal) =>
    decide.mutate(
      { id: withdrawal.id, approve: true },
      {
        onSuccess: () =>
          toast.success(
            `Withdrawal of ${formatDollars(withdrawal.withdrawal_amount)} to ${withdrawal.worker_name} approved`,
          ),
        onError: (error) => toast.error(errorMessage(error, "Failed to approve withdrawal")),
      },
    );

  return (
    <>
      <PagedList
        pages={adminQueries.pendingWithdrawals}
        errorMessage="Failed to fetch withdrawal requests"
        empty="No withdrawals are waiting."
      >
        {(items) => (
          <DataTable
            numeric={["Coins", "Amount"]}
            headers={["Worker", "Coins", "Amount", "Pay to", "Requested", ""]}
          >
            {items.map((withdrawal) => (
              <tr key={withdrawal.id}>
                <td>
                  <p className="font-medium">{withdrawal.worker_name}</p>
                  <p className="text-xs text-base-content/70">{withdrawal.worker_email}</p>
                </td>
                <WithdrawalCells withdrawal={withdrawal} />
                <td>
                  <When iso={withdrawal.withdraw_date} />
                </td>
                <td>
                  <div className="flex gap-2">
                    <DecisionButtons
                      small
                      busy={decide.isPending}
                      onReject={() => setRejecting(withdrawal)}
                      onApprove={() => approve(withdrawal)}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      {rejecting && <RejectWithdrawalModal withdrawal={rejecting} onClose={() => setRejecting(null)} />}
    </>
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
      <h2 className="mb-3 mt-8 text-xl font-bold">Withdrawal requests</h2>
      <PendingWithdrawals />
      <h2 className="mb-3 mt-8 text-xl font-bold">Audit trail</h2>
      <AuditTrail />
    </Page>
  );
}
