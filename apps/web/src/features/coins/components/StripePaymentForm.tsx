import { useQuery } from "@tanstack/react-query";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
// The pure entry adds Stripe's script only when loadStripe() is called, not on import.
import { loadStripe } from "@stripe/stripe-js/pure";
import { useMemo } from "react";
import { z } from "zod";
import { Form, FormError, useZodForm } from "../../../components/form/Form.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useConfirmStripePayment } from "../api.ts";
import { coinQueries } from "../queries.ts";
import { PayButton, useShowCompletedPayment } from "./payment.tsx";

function CardForm({ paymentId, amount }: { paymentId: string; amount: number }) {
  const stripe = useStripe();
  const elements = useElements();
  const confirm = useConfirmStripePayment();
  const showCompleted = useShowCompletedPayment();
  // No fields of ours: the card is in Stripe's PaymentElement.
  const form = useZodForm(z.object({}));
  const fail = (message: string) => form.setError("root", { message });

  const onSubmit = async () => {
    if (!stripe || !elements) return fail("Stripe not loaded properly");
    const result = await stripe.confirmPayment({ elements, redirect: "if_required" });
    if (result.error) return fail(result.error.message ?? "Payment failed. Please try again.");
    // Coins are credited only once the server has checked the payment with Stripe.
    if (!(await showCompleted(await confirm.mutateAsync(paymentId))))
      fail("Your bank is still confirming this payment. Your coins will appear as soon as it does.");
  };

  return (
    <Form form={form} onSubmit={onSubmit} className="space-y-4">
      <PaymentElement />
      <FormError />
      <PayButton amount={amount} disabled={!stripe} />
    </Form>
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
