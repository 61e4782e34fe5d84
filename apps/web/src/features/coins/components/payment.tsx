import { useFormState } from "react-hook-form";
import { useNavigate } from "react-router";
import { toast } from "react-toastify";
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
    toast.success("Payment information saved successfully");
    toast.info(`Payment successful! Transaction id: ${payment.paymentId}`);
    await navigate(paths.dashboard.paymentSuccess, {
      replace: true,
      state: { paymentId: payment.paymentId, coins: payment.coins },
    });
    return true;
  };
}
