import { CircleCheck } from "lucide-react";
import { Link, useLocation } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { coinCount } from "../../../lib/format.ts";

export function PaymentSuccessPage() {
  const state = useLocation().state as { paymentId?: string; coins?: number } | null;
  return (
    <section className="mx-auto max-w-md rounded-box bg-base-100 p-8 text-center shadow-sm">
      <CircleCheck className="mx-auto size-14 text-success" aria-hidden="true" />
      <h1 className="mt-3 text-2xl font-bold">Payment successful</h1>
      {state?.coins && (
        <p className="mt-2">
          {coinCount(state.coins)} {state.coins === 1 ? "was" : "were"} added to your balance.
        </p>
      )}
      {state?.paymentId && (
        <p className="mt-1 break-all text-sm text-base-content/70">Transaction id: {state.paymentId}</p>
      )}
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to={paths.dashboard.purchaseCoin} className="btn btn-primary">
          Buy more coins
        </Link>
        <Link to={paths.dashboard.paymentHistory} className="btn">
          Payment history
        </Link>
      </div>
    </section>
  );
}
