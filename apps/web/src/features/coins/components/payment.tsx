import { useFormState } from "react-hook-form";
import { useNavigate } from "react-router";
import type { Payment } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { SubmitButton } from "../../../components/form/Form.tsx";
import { formatDollars } from "../../../lib/format.ts";

/** The submit button of a card form. */
export function PayButton({ amount, disabled }: { amount: number; disabled?: boolean }) {
  const { isSubmitting } = useFormState();
  return (
    <SubmitButton className="btn btn-primary mt-2 w-full" disabled={disabled}>
      {isSubmitting ? "Processing payment..." : `Pay ${formatDollars(amount)}`}
    </SubmitButton>
  );
}

/** A settled payment: to the success page if it completed; answers whether it did. */
export function useShowCompletedPayment() {
  const navigate = useNavigate();
  return async (payment: Payment) => {
    if (payment.status !== "completed") return false;
    // The success page says it, with the transaction id: no toast besides (one feedback per event).
    await navigate(paths.dashboard.paymentSuccess, {
      replace: true,
      state: { paymentId: payment.paymentId, coins: payment.coins },
    });
    return true;
  };
}
