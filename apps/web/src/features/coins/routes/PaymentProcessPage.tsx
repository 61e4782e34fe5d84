import { lazy, Suspense } from "react";
import { Navigate, useLocation } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { useServerConfig } from "../../../lib/auth.ts";
import { coinCount, formatDollars } from "../../../lib/format.ts";
import { SandboxCardForm } from "../components/SandboxCardForm.tsx";

// Stripe's code (and the script it loads from js.stripe.com) only when Stripe is the provider.
const StripePaymentForm = lazy(() =>
  import("../components/StripePaymentForm.tsx").then((module) => ({ default: module.StripePaymentForm })),
);

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
            <Suspense fallback={<Spinner label="Preparing the payment" />}>
              <StripePaymentForm packageId={purchase.packageId} amount={purchase.amount} />
            </Suspense>
          ) : (
            <SandboxCardForm packageId={purchase.packageId} amount={purchase.amount} />
          )}
        </div>
      </div>
    </Page>
  );
}
