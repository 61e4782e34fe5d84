import { CircleCheck } from "lucide-react";
import { Link, useLocation } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { coinCount } from "../../../lib/format.ts";

/** After a purchase, the next step is to spend the coins: posting a task leads. */
export function PaymentSuccessPage() {
  const state = useLocation().state as { paymentId?: string; coins?: number } | null;
  return (
    <section className="mx-auto max-w-md rounded-box bg-base-100 p-6 text-center shadow-sm sm:p-8">
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
      <p className="mt-4 text-base-content/80">
        Post a task: its pay is set aside from these coins, and workers can start at once.
      </p>
      <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:justify-center">
        <Link to={paths.dashboard.addTasks} className="btn btn-primary min-h-11">
          Post a task
        </Link>
        <Link to={paths.dashboard.paymentHistory} className="btn btn-ghost min-h-11">
          Payment history
        </Link>
        <Link to={paths.dashboard.purchaseCoin} className="btn btn-ghost min-h-11">
          Buy more coins
        </Link>
      </div>
    </section>
  );
}
