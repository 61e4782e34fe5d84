import { CircleCheck, CircleX, Clock, Undo2 } from "lucide-react";
import type { Withdrawal } from "@taskmint/shared";
import { When } from "../../../components/ui/When.tsx";

/** A request's steps so far: requested (coins held), then waiting, paid, rejected or cancelled. */
export function WithdrawalTimeline({ withdrawal }: { withdrawal: Withdrawal }) {
  const { status, decided_at: decidedAt, reason, payout_reference: reference } = withdrawal;
  return (
    <ol className="space-y-1 text-left text-sm" aria-label="Progress of this request">
      <li className="flex items-center gap-2">
        <CircleCheck className="size-4 flex-none text-success" aria-hidden="true" />
        <span>
          Requested, coins held · <When iso={withdrawal.withdraw_date} />
        </span>
      </li>
      {status === "pending" && (
        <li className="flex items-center gap-2">
          <Clock className="size-4 flex-none text-warning" aria-hidden="true" />
          <span>Waiting for an admin to pay it</span>
        </li>
      )}
      {status === "approved" && (
        <li className="flex items-center gap-2">
          <CircleCheck className="size-4 flex-none text-success" aria-hidden="true" />
          <span>
            Paid
            {decidedAt && (
              <>
                {" "}
                · <When iso={decidedAt} />
              </>
            )}
            {reference && <span className="block text-base-content/70">Reference: {reference}</span>}
          </span>
        </li>
      )}
      {status === "rejected" && (
        <li className="flex items-start gap-2">
          <CircleX className="mt-0.5 size-4 flex-none text-error" aria-hidden="true" />
          <span>
            Rejected, coins returned
            {decidedAt && (
              <>
                {" "}
                · <When iso={decidedAt} />
              </>
            )}
            {reason && <span className="block text-error">Reason: {reason}</span>}
          </span>
        </li>
      )}
      {status === "cancelled" && (
        <li className="flex items-center gap-2">
          <Undo2 className="size-4 flex-none text-base-content/70" aria-hidden="true" />
          <span>
            Cancelled by you, coins returned
            {decidedAt && (
              <>
                {" "}
                · <When iso={decidedAt} />
              </>
            )}
          </span>
        </li>
      )}
    </ol>
  );
}
