import { ConfirmHighRisk } from "./ConfirmHighRisk.tsx";
import { useState } from "react";
import { toast } from "react-toastify";
import {
  payoutFormSchema,
  rejectionSchema,
  type PayoutForm,
  type Rejection,
  type Withdrawal,
  type WithdrawalStatus,
} from "@taskmint/shared";
import { Field, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormModal } from "../../../components/form/FormModal.tsx";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { DecisionButtons } from "../../../components/ui/DecisionButtons.tsx";
import { Email } from "../../../components/ui/Email.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { StatusBadge } from "../../../components/ui/StatusBadge.tsx";
import { When } from "../../../components/ui/When.tsx";
import { ApiError } from "../../../lib/api.ts";
import { coinCount, formatDollars } from "../../../lib/format.ts";
import { WithdrawalCells } from "../../../components/withdrawals/WithdrawalCells.tsx";
import { useDecideWithdrawal } from "../api.ts";
import { RiskSummary } from "./RiskSummary.tsx";
import { useTwoFactorGate } from "../../../components/two-factor/TwoFactorNeeded.tsx";
import { adminQueries } from "../queries.ts";

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
      <FormError />
    </FormModal>
  );
}

/**
 * Paying a withdrawal: the admin sends the money first, then records the reference it went under.
 * A high risk asks the admin to confirm, having read the reasons, a second time (decision 017).
 */
function PayWithdrawalModal({ withdrawal, onClose }: { withdrawal: Withdrawal; onClose: () => void }) {
  const decide = useDecideWithdrawal();
  const form = useZodForm(payoutFormSchema, { payout_reference: "", confirm_high_risk: false });
  const { risk } = withdrawal;
  // The server may find a high risk the list did not show (facts newer than the list).
  const [mustConfirm, setMustConfirm] = useState(risk?.level === "high");
  const high = risk?.level === "high" || mustConfirm;
  const pay = async (values: PayoutForm) => {
    try {
      await decide.mutateAsync({ id: withdrawal.id, approve: true, ...values });
    } catch (error) {
      if (error instanceof ApiError && error.code === "RISK_CONFIRMATION_REQUIRED") setMustConfirm(true);
      throw error;
    }
    toast.success(
      `Withdrawal of ${formatDollars(withdrawal.withdrawal_amount)} to ${withdrawal.worker_name} recorded as paid`,
    );
    onClose();
  };
  const destination = `${withdrawal.payment_system} ${withdrawal.account_number}`;
  return (
    <FormModal
      form={form}
      onSubmit={pay}
      title={`Pay ${withdrawal.worker_name} ${formatDollars(withdrawal.withdrawal_amount)}`}
      onClose={onClose}
      actions={
        <SubmitButton className="btn btn-success">{high ? "Pay anyway" : "Record as paid"}</SubmitButton>
      }
    >
      <p className="mb-3 text-sm">
        Send {formatDollars(withdrawal.withdrawal_amount)} ({coinCount(withdrawal.withdrawal_coin)}) to{" "}
        <strong className="break-all">{destination}</strong>, then enter the transaction id it went under. The
        worker sees it on their timeline.
      </p>
      {risk && risk.level !== "low" && (
        <div role="alert" className={`alert ${high ? "alert-error" : "alert-warning"} mb-3 items-start`}>
          <RiskSummary risk={risk} />
        </div>
      )}
      <Field
        name="payout_reference"
        id="payout-reference"
        label={
          withdrawal.payment_system === "PayPal"
            ? "PayPal transaction id"
            : `${withdrawal.payment_system} transaction id`
        }
        autoComplete="off"
        autoFocus
      />
      {high && (
        <ConfirmHighRisk field={form.register("confirm_high_risk")}>
          I have checked the reasons above and want to pay this withdrawal anyway.
        </ConfirmHighRisk>
      )}
      <div className="mt-3">
        <FormError />
      </div>
    </FormModal>
  );
}

export const WITHDRAWAL_FILTERS: { value: WithdrawalStatus | ""; label: string }[] = [
  { value: "pending", label: "Waiting" },
  { value: "approved", label: "Paid" },
  { value: "rejected", label: "Rejected" },
  { value: "cancelled", label: "Cancelled" },
  { value: "", label: "All" },
];

/**
 * Withdrawals for admins: the worker, what and where to pay, the risk, and the decision.
 * `inSection`: one section of a longer page (Admin home), whose locked notice keeps its own line.
 */
export function WithdrawalRequests({
  status,
  q = "",
  inSection = false,
}: {
  status: WithdrawalStatus | "";
  q?: string;
  inSection?: boolean;
}) {
  const [rejecting, setRejecting] = useState<Withdrawal | null>(null);
  const [paying, setPaying] = useState<Withdrawal | null>(null);
  const filtered = q !== "" || status !== "pending";
  const gate = useTwoFactorGate("decide withdrawals", "decide", { inSection });
  return (
    <>
      {gate.notice}
      <PagedList
        key={`${status}|${q}`}
        pages={(page) => adminQueries.withdrawals(page, status, q)}
        errorMessage="Failed to fetch withdrawal requests"
        empty={filtered ? "No withdrawals match." : "No withdrawals are waiting."}
      >
        {(items) => (
          <DataTable
            numeric={["Coins", "Amount"]}
            headers={["Worker", "Coins", "Amount", "Pay to", "Requested", "Risk or outcome", ""]}
          >
            {items.map((withdrawal) => (
              <tr key={withdrawal.id}>
                <td>
                  <p className="font-medium">{withdrawal.worker_name}</p>
                  <Email address={withdrawal.worker_email} className="text-xs text-base-content/70" />
                </td>
                <WithdrawalCells withdrawal={withdrawal} />
                <td>
                  <When iso={withdrawal.withdraw_date} />
                </td>
                <td className="min-w-48">
                  {withdrawal.risk ? (
                    <RiskSummary risk={withdrawal.risk} />
                  ) : (
                    <div className="text-sm">
                      <StatusBadge status={withdrawal.status} />
                      {withdrawal.payout_reference && (
                        <p className="mt-1 break-words">Reference: {withdrawal.payout_reference}</p>
                      )}
                      {withdrawal.reason && <p className="mt-1">Reason: {withdrawal.reason}</p>}
                    </div>
                  )}
                </td>
                <td>
                  {withdrawal.status === "pending" &&
                    (gate.locked ? (
                      gate.lockedAction
                    ) : (
                      <div className="flex gap-2">
                        <DecisionButtons
                          small
                          onReject={() => setRejecting(withdrawal)}
                          onApprove={() => setPaying(withdrawal)}
                        />
                      </div>
                    ))}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      {rejecting && <RejectWithdrawalModal withdrawal={rejecting} onClose={() => setRejecting(null)} />}
      {paying && <PayWithdrawalModal withdrawal={paying} onClose={() => setPaying(null)} />}
    </>
  );
}
