import { z } from "zod";
import { sandboxCardSchema, type SandboxCard } from "@taskmint/shared";
import { Field, Form, FormError, useZodForm } from "../../../components/form/Form.tsx";
import { usePayWithCard } from "../api.ts";
import { PayButton, useShowCompletedPayment } from "./payment.tsx";

/** MM/YY as the card schema's month and year. */
const expirySchema = z.string().transform((value, context) => {
  const [month = "", year = ""] = value.split("/").map((part) => part.trim());
  const parsed = sandboxCardSchema
    .pick({ exp_month: true, exp_year: true })
    .safeParse({ exp_month: month, exp_year: year.length === 2 ? `20${year}` : year });
  if (parsed.success) return parsed.data;
  context.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? "Check the expiry date." });
  return z.NEVER;
});

const cardFormSchema = sandboxCardSchema
  .omit({ exp_month: true, exp_year: true })
  .extend({ expiry: expirySchema })
  .transform(({ expiry, ...card }): SandboxCard => ({ ...card, ...expiry }));

/** The sandbox provider's card form (card test mode, run by our own server). */
export function SandboxCardForm({ packageId, amount }: { packageId: string; amount: number }) {
  const pay = usePayWithCard();
  const showCompleted = useShowCompletedPayment();
  const form = useZodForm(cardFormSchema, { card_number: "", expiry: "", cvc: "" });
  const onSubmit = async (card: SandboxCard) => {
    const payment = await pay.mutateAsync({ packageId, card });
    if (await showCompleted(payment)) return;
    form.setError("root", { message: payment.failure_reason ?? "Payment failed. Please try again." });
  };

  return (
    <Form form={form} onSubmit={onSubmit} className="space-y-1">
      <Field
        name="card_number"
        id="card-number"
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
      />
      <div className="grid grid-cols-2 gap-3">
        <Field
          name="expiry"
          id="card-expiry"
          label="Expiry (MM/YY)"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="12/30"
        />
        <Field
          name="cvc"
          id="card-cvc"
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
        />
      </div>
      <FormError />
      <PayButton amount={amount} />
      <p className="text-xs text-base-content/70">
        Test mode: use 4242 4242 4242 4242 with any future expiry and any CVC.
      </p>
    </Form>
  );
}
