import { useState } from "react";
import { useWatch } from "react-hook-form";
import { Link } from "react-router";
import { toast } from "react-toastify";
import {
  APPEAL_MESSAGE_MAX,
  appealAnswerSchema,
  appealRequestSchema,
  type AppealAnswer,
  type AppealRequest,
  type Submission,
} from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { Field, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormModal } from "../../../components/form/FormModal.tsx";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { coinCount, formatDateTime } from "../../../lib/format.ts";
import { useAnswerAppeal, useAppeal, useEscalate } from "../api.ts";
import { trustQueries } from "../queries.ts";
import { Screenshots } from "../../../components/ui/Screenshots.tsx";
import { SubmittedWork } from "./AppealEvidence.tsx";
import { WorkerReputationLine } from "./Reputation.tsx";

/** Where an appeal stands, in the worker's words. */
export function appealStatusText(submission: Submission): string | null {
  const appeal = submission.appeal;
  if (!appeal) return null;
  switch (appeal.status) {
    case "open":
      return "Appeal sent: waiting for the buyer";
    case "upheld_by_buyer":
      return `The buyer kept the rejection: ${appeal.answer ?? ""}`;
    case "escalated":
      return "Appeal with the admins";
    case "overturned":
      return `Appeal accepted: ${coinCount(submission.payable_amount)} paid`;
    case "upheld":
      return `The admins kept the rejection: ${appeal.answer ?? ""}`;
  }
}

/** Until when a rejection can still be appealed, as the server says (rule R22), or null. */
const appealDeadline = (submission: Submission, now: number): Date | null => {
  if (!submission.appeal_until) return null;
  const until = new Date(submission.appeal_until);
  return until.getTime() > now ? until : null;
};

function AppealModal({ submission, onClose }: { submission: Submission; onClose: () => void }) {
  const appeal = useAppeal();
  const form = useZodForm(appealRequestSchema, { message: "" });
  const message = useWatch({ control: form.control, name: "message" });
  const submit = async ({ message }: AppealRequest) => {
    await appeal.mutateAsync({ id: submission.id, message });
    toast.success("Appeal sent. The buyer has been told.");
    onClose();
  };
  return (
    <FormModal
      form={form}
      onSubmit={submit}
      title={`Appeal the rejection of “${submission.task_title}”`}
      onClose={onClose}
      actions={<SubmitButton>Send appeal</SubmitButton>}
    >
      <p className="mb-3 text-sm">
        The buyer's reason: <span className="italic">{submission.reason}</span>. Explain why your work meets
        the task. You can appeal once; if the buyer keeps the rejection, you can take it to the admins.
      </p>
      <Field
        name="message"
        label={`Your message (up to ${APPEAL_MESSAGE_MAX.toLocaleString("en-US")} characters)`}
        as="textarea"
        rows={4}
        maxLength={APPEAL_MESSAGE_MAX}
        autoFocus
        hint={
          <span className="ml-auto">{`${message.length} / ${APPEAL_MESSAGE_MAX.toLocaleString("en-US")}`}</span>
        }
      />
      <FormError />
    </FormModal>
  );
}

/** The worker's appeal of one submission: its state, and the next step they may take. */
export function WorkerAppeal({ submission }: { submission: Submission }) {
  const [appealing, setAppealing] = useState(false);
  const escalate = useEscalate();
  // The time the row was drawn: a list refetched after any change redraws it.
  const [now] = useState(() => Date.now());
  const deadline = appealDeadline(submission, now);
  const status = appealStatusText(submission);
  const escalateFrom = submission.appeal?.escalate_from ? new Date(submission.appeal.escalate_from) : null;
  const canEscalate = escalateFrom !== null && escalateFrom.getTime() <= now;
  const sendUp = () =>
    escalate.mutate(submission.id, {
      onSuccess: () => toast.success("Your appeal is with the admins; their decision is final"),
      onError: (error) => toast.error(errorMessage(error, "Failed to escalate the appeal")),
    });
  return (
    <div className="mt-1 grid gap-1 text-xs">
      {status && <p className="max-w-xs">{status}</p>}
      {deadline && (
        <button type="button" className="btn btn-sm btn-outline w-fit" onClick={() => setAppealing(true)}>
          Appeal
        </button>
      )}
      {deadline && (
        <p className="text-base-content/70">You can appeal until {formatDateTime(deadline.toISOString())}</p>
      )}
      {escalateFrom &&
        (canEscalate ? (
          <button
            type="button"
            className="btn btn-sm btn-outline w-fit"
            disabled={escalate.isPending}
            onClick={sendUp}
          >
            Escalate to admins
          </button>
        ) : (
          <p className="text-base-content/70">
            If the buyer does not answer, you can escalate from {formatDateTime(escalateFrom.toISOString())}
          </p>
        ))}
      {appealing && <AppealModal submission={submission} onClose={() => setAppealing(false)} />}
    </div>
  );
}

function UpholdModal({ submission, onClose }: { submission: Submission; onClose: () => void }) {
  const answerAppeal = useAnswerAppeal();
  const form = useZodForm(appealAnswerSchema, { answer: "" });
  const submit = async ({ answer }: AppealAnswer) => {
    await answerAppeal.mutateAsync({ id: submission.id, overturn: false, answer });
    toast.success("Rejection kept; the worker has your answer");
    onClose();
  };
  return (
    <FormModal
      form={form}
      onSubmit={submit}
      title="Keep the rejection"
      onClose={onClose}
      actions={<SubmitButton className="btn btn-error">Keep rejection</SubmitButton>}
    >
      <div className="mb-3 grid gap-3">
        <SubmittedWork submission={submission} />
        <section className="text-sm">
          <h3 className="text-xs font-semibold tracking-wide text-base-content/70 uppercase">
            {submission.worker_name}'s appeal
          </h3>
          <p className="mt-1 break-words whitespace-pre-line">{submission.appeal?.message}</p>
        </section>
        <p className="text-sm">
          Tell {submission.worker_name} why you keep the rejection. They may then take the appeal to the
          admins, whose decision is final.
        </p>
      </div>
      <Field name="answer" label="Your answer" as="textarea" rows={3} autoFocus />
      <FormError />
    </FormModal>
  );
}

/** The buyer's appeals to answer: overturn (the worker is paid) or keep the rejection with an answer. */
export function AppealsToAnswer() {
  const [upholding, setUpholding] = useState<Submission | null>(null);
  const [overturning, setOverturning] = useState<Submission | null>(null);
  // An overturn the buyer's balance could not pay: said beside the list, with a way to buy coins.
  const [shortOfCoins, setShortOfCoins] = useState<Submission | null>(null);
  const answerAppeal = useAnswerAppeal();
  const overturn = {
    item: overturning,
    busy: answerAppeal.isPending,
    cancel: () => setOverturning(null),
    confirm: async () => {
      if (!overturning) return;
      const submission = overturning;
      try {
        await answerAppeal.mutateAsync({ id: submission.id, overturn: true });
        setShortOfCoins(null);
        toast.success(
          `Rejection overturned: ${submission.worker_name} was paid ${coinCount(submission.payable_amount)}`,
        );
      } catch (error) {
        if (error instanceof ApiError && error.code === "INSUFFICIENT_COINS") setShortOfCoins(submission);
        else toast.error(errorMessage(error, "Failed to overturn the rejection"));
      }
      setOverturning(null);
    },
  };
  return (
    <>
      {shortOfCoins && (
        <div role="alert" className="alert alert-error mb-3 flex flex-wrap text-sm">
          <span>
            You do not have enough coins to pay {shortOfCoins.worker_name}{" "}
            {coinCount(shortOfCoins.payable_amount)}: the task has no open slot left to pay from.
          </span>
          <Link to={paths.dashboard.purchaseCoin} className="btn btn-sm">
            Buy coins
          </Link>
        </div>
      )}
      <PagedList
        pages={trustQueries.appealsToAnswer}
        errorMessage="Failed to load appeals"
        empty={{
          title: "No appeals to answer.",
          children: "When a worker appeals a rejection, it shows here.",
        }}
      >
        {(items) => (
          <DataTable headers={["Worker", "Task", "Their work", "Your reason", "Their appeal", ""]}>
            {items.map((submission) => (
              <tr key={submission.id}>
                <td>
                  <p className="font-medium">{submission.worker_name}</p>
                  <WorkerReputationLine reputation={submission.worker_reputation} />
                </td>
                <td>{submission.task_title}</td>
                <td className="max-w-xs">
                  <p className="line-clamp-3 break-words whitespace-pre-line">
                    {submission.submission_details}
                  </p>
                  {submission.attachments.length > 0 && (
                    <div className="mt-2">
                      <Screenshots urls={submission.attachments} />
                    </div>
                  )}
                </td>
                <td className="max-w-xs break-words">{submission.reason}</td>
                <td className="max-w-xs break-words">{submission.appeal?.message}</td>
                <td>
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      className="btn btn-success btn-sm"
                      onClick={() => setOverturning(submission)}
                    >
                      Overturn and pay {coinCount(submission.payable_amount)}
                    </button>
                    <button type="button" className="btn btn-sm" onClick={() => setUpholding(submission)}>
                      Keep rejection
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      <ConfirmDialog
        deletion={overturn}
        title={(submission) => `Overturn your rejection of ${submission.worker_name}'s work?`}
        message={(submission) =>
          `The submission becomes approved and ${submission.worker_name} is paid ${coinCount(submission.payable_amount)}, from the task's open slots if it has one, otherwise from your balance.`
        }
        confirmLabel={(submission) => `Overturn and pay ${coinCount(submission.payable_amount)}`}
      />
      {upholding && <UpholdModal submission={upholding} onClose={() => setUpholding(null)} />}
    </>
  );
}
