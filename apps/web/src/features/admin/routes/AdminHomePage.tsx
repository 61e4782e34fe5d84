import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Coins, DollarSign, ShieldAlert, ShieldCheck, ShoppingBag, Users } from "lucide-react";
import { useState } from "react";
import { toast } from "react-toastify";
import type { Withdrawal } from "@taskmint/shared";
import { Modal } from "../../../components/ui/Modal.tsx";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { Pagination } from "../../../components/ui/Pagination.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { StatCard } from "../../../components/ui/StatCard.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatCoins, formatDate, formatDollars } from "../../../lib/format.ts";
import { ActivityCharts } from "../components/ActivityCharts.tsx";
import { AuditTrail } from "../components/AuditTrail.tsx";
import { useDecideWithdrawal } from "../api.ts";
import { adminQueries } from "../queries.ts";

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
  const [reason, setReason] = useState("");
  const reject = () =>
    decide.mutate(
      { id: withdrawal.id, approve: false, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success("Withdrawal rejected; the coins went back to the worker");
          onClose();
        },
        onError: (error) => toast.error(errorMessage(error, "Failed to reject withdrawal")),
      },
    );
  return (
    <Modal
      open
      title={`Reject ${withdrawal.worker_name}'s withdrawal`}
      onClose={onClose}
      actions={
        <button
          type="button"
          className="btn btn-error"
          disabled={reason.trim() === "" || decide.isPending}
          onClick={reject}
        >
          Reject withdrawal
        </button>
      }
    >
      <div className="fieldset">
        <label htmlFor="withdrawal-reason" className="fieldset-legend">
          Reason (the worker will see it)
        </label>
        <textarea
          id="withdrawal-reason"
          className="textarea w-full"
          rows={3}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          autoFocus
        />
      </div>
    </Modal>
  );
}

function PendingWithdrawals() {
  const [page, setPage] = useState(1);
  const pending = useQuery(adminQueries.pendingWithdrawals(page));
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

  if (pending.isPending) return <Spinner />;
  if (pending.isError)
    return (
      <ErrorState message="Failed to fetch withdrawal requests" onRetry={() => void pending.refetch()} />
    );
  if (pending.data.items.length === 0) return <EmptyState title="No withdrawals are waiting." />;
  return (
    <>
      <DataTable headers={["Worker", "Coins", "Amount", "Pay to", "Requested", ""]}>
        {pending.data.items.map((withdrawal) => (
          <tr key={withdrawal.id}>
            <td>
              <p className="font-medium">{withdrawal.worker_name}</p>
              <p className="text-xs text-base-content/60">{withdrawal.worker_email}</p>
            </td>
            <td>{formatCoins(withdrawal.withdrawal_coin)}</td>
            <td>{formatDollars(withdrawal.withdrawal_amount)}</td>
            <td className="whitespace-nowrap">
              {withdrawal.payment_system} · {withdrawal.account_number}
            </td>
            <td className="whitespace-nowrap">{formatDate(withdrawal.withdraw_date)}</td>
            <td>
              <div className="flex gap-2">
                <button
                  type="button"
                  className="btn btn-success btn-sm"
                  disabled={decide.isPending}
                  onClick={() => approve(withdrawal)}
                >
                  Approve
                </button>
                <button
                  type="button"
                  className="btn btn-outline btn-error btn-sm"
                  disabled={decide.isPending}
                  onClick={() => setRejecting(withdrawal)}
                >
                  Reject
                </button>
              </div>
            </td>
          </tr>
        ))}
      </DataTable>
      <Pagination page={page} limit={pending.data.limit} total={pending.data.total} onPage={setPage} />
      {rejecting && <RejectWithdrawalModal withdrawal={rejecting} onClose={() => setRejecting(null)} />}
    </>
  );
}

export function AdminHomePage() {
  const stats = useQuery(adminQueries.stats());
  return (
    <div>
      <PageHeader title="Admin Home" />
      {stats.isError ? (
        <ErrorState message="Failed to fetch dashboard statistics" onRetry={() => void stats.refetch()} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <StatCard
            label="Total workers"
            value={stats.data?.totalWorkers ?? "…"}
            icon={<Users aria-hidden="true" />}
          />
          <StatCard
            label="Total buyers"
            value={stats.data?.totalBuyers ?? "…"}
            icon={<ShoppingBag aria-hidden="true" />}
          />
          <StatCard
            label="Total coins"
            value={stats.data ? formatCoins(stats.data.totalCoins) : "…"}
            icon={<Coins aria-hidden="true" />}
          />
          <StatCard
            label="Total payments"
            value={stats.data ? formatDollars(stats.data.totalPayments) : "…"}
            icon={<DollarSign aria-hidden="true" />}
          />
        </div>
      )}
      <h2 className="mb-3 mt-8 text-xl font-bold">Activity</h2>
      <ActivityCharts />
      <h2 className="mb-3 mt-8 text-xl font-bold">Ledger health</h2>
      <LedgerHealth />
      <h2 className="mb-3 mt-8 text-xl font-bold">Withdrawal requests</h2>
      <PendingWithdrawals />
      <h2 className="mb-3 mt-8 text-xl font-bold">Audit trail</h2>
      <AuditTrail />
    </div>
  );
}
