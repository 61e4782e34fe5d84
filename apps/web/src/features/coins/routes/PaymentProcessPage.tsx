import { Navigate, useLocation } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { useServerConfig } from "../../../lib/auth.ts";
import { coinCount, formatDollars } from "../../../lib/format.ts";
import { SandboxCardForm } from "../components/SandboxCardForm.tsx";
import { StripePaymentForm } from "../components/StripePaymentForm.tsx";

interface Purchase {
  packageId: string;
  coins: number;
  amount: number;
}

export function PaymentProcessPage() {
  const purchase = useLocation().state as Purchase | null;
  const config = useServerConfig();
  if (!purchase?.packageId) return <Navigate to={paths.dashboard.purchaseCoin} replace />;
  return (
    <Page title="Payment" className="mx-auto max-w-md">
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body">
          <p className="rounded-box bg-base-200 p-3">
            {coinCount(purchase.coins)} for <strong>{formatDollars(purchase.amount)}</strong>
          </p>
          {!config.data ? (
            <Spinner />
          ) : config.data.payment_provider === "stripe" ? (
            <StripePaymentForm packageId={purchase.packageId} amount={purchase.amount} />
          ) : (
            <SandboxCardForm packageId={purchase.packageId} amount={purchase.amount} />
          )}
        </div>
      </div>
    </Page>
  );
}
