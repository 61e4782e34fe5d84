import { useQuery } from "@tanstack/react-query";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe } from "@stripe/stripe-js";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "react-toastify";
import { paths } from "@taskmint/shared/routes";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatDollars } from "../../../lib/format.ts";
import { useConfirmStripePayment } from "../api.ts";
import { coinQueries } from "../queries.ts";

function CardForm({ paymentId, amount }: { paymentId: string; amount: number }) {
  const stripe = useStripe();
  const elements = useElements();
  const confirm = useConfirmStripePayment();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) {
      setFailure("Stripe not loaded properly");
      return;
    }
    setBusy(true);
    setFailure(null);
    const result = await stripe.confirmPayment({ elements, redirect: "if_required" });
    if (result.error) {
      setFailure(result.error.message ?? "Payment failed. Please try again.");
      toast.error("Payment failed. Please try again.");
      setBusy(false);
      return;
    }
    try {
      // Coins are credited only once the server has checked the payment with Stripe.
      const payment = await confirm.mutateAsync(paymentId);
      if (payment.status === "completed") {
        toast.success("Payment information saved successfully");
        toast.info(`Payment successful! Transaction id: ${payment.paymentId}`);
        await navigate(paths.dashboard.paymentSuccess, {
          replace: true,
          state: { paymentId: payment.paymentId, coins: payment.coins },
        });
      } else {
        setFailure("Your bank is still confirming this payment. Your coins will appear as soon as it does.");
      }
    } catch (error) {
      setFailure(errorMessage(error, "Payment failed. Please try again."));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="space-y-4">
      <PaymentElement />
      {failure && (
        <div role="alert" className="alert alert-error text-sm">
          {failure}
        </div>
      )}
      <button type="submit" className="btn btn-primary w-full" disabled={busy || !stripe}>
        {busy ? (
          <>
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            Processing payment...
          </>
        ) : (
          `Pay ${formatDollars(amount)}`
        )}
      </button>
    </form>
  );
}

/** Stripe Elements: the card never touches our server; the server verifies the result with Stripe. */
export function StripePaymentForm({ packageId, amount }: { packageId: string; amount: number }) {
  const intent = useQuery(coinQueries.stripeIntent(packageId));
  const key = intent.data?.publishable_key;
  const stripePromise = useMemo(() => (key ? loadStripe(key).catch(() => null) : null), [key]);
  if (intent.isPending) return <Spinner label="Preparing the payment" />;
  if (intent.isError)
    return <ErrorState message={errorMessage(intent.error, "Payment failed. Please try again.")} />;
  if (!stripePromise) return <ErrorState message="Stripe not loaded properly" />;
  return (
    <Elements stripe={stripePromise} options={{ clientSecret: intent.data.client_secret }}>
      <CardForm paymentId={intent.data.payment.id} amount={amount} />
    </Elements>
  );
}
