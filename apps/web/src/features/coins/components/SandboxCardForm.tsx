import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "react-toastify";
import { sandboxCardSchema } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { errorMessage } from "../../../lib/api.ts";
import { formatDollars } from "../../../lib/format.ts";
import { usePayWithCard } from "../api.ts";

/** The sandbox provider's card form (card test mode, run by our own server). */
export function SandboxCardForm({ packageId, amount }: { packageId: string; amount: number }) {
  const navigate = useNavigate();
  const pay = usePayWithCard();
  const [card, setCard] = useState({ number: "", expiry: "", cvc: "" });
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const [month = "", year = ""] = card.expiry.split("/").map((part) => part.trim());
    const parsed = sandboxCardSchema.safeParse({
      card_number: card.number,
      exp_month: month,
      exp_year: year.length === 2 ? `20${year}` : year,
      cvc: card.cvc,
    });
    if (!parsed.success) {
      setFailure(parsed.error.issues[0]?.message ?? "Check your card details.");
      return;
    }
    pay.mutate(
      { packageId, card: parsed.data },
      {
        onSuccess: (payment) => {
          if (payment.status === "completed") {
            toast.success("Payment information saved successfully");
            toast.info(`Payment successful! Transaction id: ${payment.paymentId}`);
            void navigate(paths.dashboard.paymentSuccess, {
              replace: true,
              state: { paymentId: payment.paymentId, coins: payment.coins },
            });
          } else {
            setFailure(payment.failure_reason ?? "Payment failed. Please try again.");
            toast.error("Payment failed. Please try again.");
          }
        },
        onError: (error) => setFailure(errorMessage(error, "Payment failed. Please try again.")),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-1">
      <div className="fieldset">
        <label htmlFor="card-number" className="fieldset-legend">
          Card number
        </label>
        <input
          id="card-number"
          className="input w-full"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          value={card.number}
          onChange={(event) => setCard({ ...card, number: event.target.value })}
        />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="fieldset">
          <label htmlFor="card-expiry" className="fieldset-legend">
            Expiry (MM/YY)
          </label>
          <input
            id="card-expiry"
            className="input w-full"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="12/30"
            value={card.expiry}
            onChange={(event) => setCard({ ...card, expiry: event.target.value })}
          />
        </div>
        <div className="fieldset">
          <label htmlFor="card-cvc" className="fieldset-legend">
            CVC
          </label>
          <input
            id="card-cvc"
            className="input w-full"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            value={card.cvc}
            onChange={(event) => setCard({ ...card, cvc: event.target.value })}
          />
        </div>
      </div>
      {failure && (
        <div role="alert" className="alert alert-error text-sm">
          {failure}
        </div>
      )}
      <button type="submit" className="btn btn-primary mt-2" disabled={pay.isPending}>
        {pay.isPending ? (
          <>
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            Processing payment...
          </>
        ) : (
          `Pay ${formatDollars(amount)}`
        )}
      </button>
      <p className="text-xs text-base-content/60">
        Test mode: use 4242 4242 4242 4242 with any future expiry and any CVC.
      </p>
    </form>
  );
}
