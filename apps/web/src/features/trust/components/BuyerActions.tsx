import { useState } from "react";
import { Link } from "react-router";
import { toast } from "react-toastify";
import { z } from "zod";
import { BLOCK_NOTE_MAX, bonusRequestSchema, textSchema, type Submission } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormModal } from "../../../components/form/FormModal.tsx";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { coinCount } from "../../../lib/format.ts";
import { useBlockWorker, useSendBonus } from "../api.ts";

const bonusFormSchema = bonusRequestSchema.pick({ coins: true, message: true });

/**
 * Sends a bonus for a submission. The Idempotency-Key is made once, when the dialog opens, and
 * goes with every attempt: a double click or a retry after a lost answer pays once (rule R23).
 */
export function BonusModal({ submission, onClose }: { submission: Submission; onClose: () => void }) {
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const send = useSendBonus();
  const form = useZodForm(bonusFormSchema, { coins: 5, message: "" });
  const [shortOfCoins, setShortOfCoins] = useState(false);
  const submit = async ({ coins, message }: z.output<typeof bonusFormSchema>) => {
    const bonus = await send.mutateAsync({ submissionId: submission.id, coins, message, idempotencyKey });
    toast.success(`Sent a bonus of ${coinCount(bonus.coins)} to ${bonus.worker_name}`);
    onClose();
  };
  const failed = (error: unknown) => {
    setShortOfCoins(error instanceof ApiError && error.code === "INSUFFICIENT_COINS");
    if (error instanceof ApiError && error.code === "INSUFFICIENT_COINS")
      form.setError("root", { message: "You do not have enough coins for this bonus. Buy coins first." });
    else form.setError("root", { message: errorMessage(error, "Failed to send the bonus") });
  };
  return (
    <FormModal
      form={form}
      onSubmit={submit}
      onError={failed}
      title={`Send ${submission.worker_name} a bonus`}
      onClose={onClose}
      actions={<SubmitButton>Send bonus</SubmitButton>}
    >
      <p className="mb-3 text-sm">
        For their work on “{submission.task_title}”. The coins leave your balance at once and the worker is
        told.
      </p>
      <div className="grid gap-3">
        <Field name="coins" label="Coins (1 to 1,000)" type="number" inputMode="numeric" min={1} max={1000} />
        <Field name="message" label="Message (optional)" as="textarea" rows={2} maxLength={500} />
        <FormError />
        {shortOfCoins && (
          <Link className="link text-sm" to={paths.dashboard.purchaseCoin}>
            Buy coins
          </Link>
        )}
      </div>
    </FormModal>
  );
}

const blockFormSchema = z.object({ note: textSchema("The note", { min: 0, max: BLOCK_NOTE_MAX }) });

/** Blocks the submission's worker from the buyer's tasks, with a private note (rule R23). */
export function BlockModal({ submission, onClose }: { submission: Submission; onClose: () => void }) {
  const block = useBlockWorker();
  const form = useZodForm(blockFormSchema, { note: "" });
  const submit = async ({ note }: z.output<typeof blockFormSchema>) => {
    await block.mutateAsync({ workerId: submission.worker_id, note });
    toast.success(`${submission.worker_name} is blocked from your tasks`);
    onClose();
  };
  return (
    <FormModal
      form={form}
      onSubmit={submit}
      title={`Block ${submission.worker_name}?`}
      onClose={onClose}
      actions={<SubmitButton className="btn btn-error">Block worker</SubmitButton>}
    >
      <p className="mb-3 text-sm">
        They will no longer see, start or submit to your tasks. Work they already sent stays here for you to
        review. You can unblock them from Blocked workers at any time.
      </p>
      <Field
        name="note"
        label="Private note (only you see it)"
        as="textarea"
        rows={2}
        maxLength={BLOCK_NOTE_MAX}
      />
      <FormError />
    </FormModal>
  );
}
