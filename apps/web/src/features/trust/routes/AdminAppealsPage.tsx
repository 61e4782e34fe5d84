import { useState } from "react";
import { toast } from "react-toastify";
import { adminAppealDecisionSchema, type AdminAppealDecision, type Submission } from "@taskmint/shared";
import { Field, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormModal } from "../../../components/form/FormModal.tsx";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { When } from "../../../components/ui/When.tsx";
import { coinCount } from "../../../lib/format.ts";
import { useTwoFactorGate } from "../../../components/two-factor/TwoFactorNeeded.tsx";
import { useDecideAppeal } from "../api.ts";
import { WorkerReputationLine } from "../components/Reputation.tsx";
import { trustQueries } from "../queries.ts";

function DecideModal({ submission, onClose }: { submission: Submission; onClose: () => void }) {
  const decide = useDecideAppeal();
  const form = useZodForm(adminAppealDecisionSchema, { decision: "uphold", answer: "" });
  const overturning = form.watch("decision") === "overturn";
  const submit = async (decision: AdminAppealDecision) => {
    const decided = await decide.mutateAsync({ id: submission.id, ...decision });
    toast.success(
      decision.decision === "overturn"
        ? `Overturned: ${submission.worker_name} was paid ${coinCount(submission.payable_amount)}${decided.appeal?.paid_from === "platform" ? " by the platform" : ""}`
        : "Rejection upheld; both sides have your answer",
    );
    onClose();
  };
  return (
    <FormModal
      form={form}
      onSubmit={submit}
      title={`Decide the appeal on “${submission.task_title}”`}
      onClose={onClose}
      actions={
        <SubmitButton>
          {overturning ? `Overturn and pay ${coinCount(submission.payable_amount)}` : "Uphold rejection"}
        </SubmitButton>
      }
    >
      <dl className="mb-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="font-semibold">Worker's work</dt>
        <dd className="whitespace-pre-wrap break-words">{submission.submission_details}</dd>
        <dt className="font-semibold">Buyer's reason</dt>
        <dd className="break-words">{submission.reason}</dd>
        <dt className="font-semibold">Appeal</dt>
        <dd className="break-words">{submission.appeal?.message}</dd>
        <dt className="font-semibold">Buyer's answer</dt>
        <dd className="break-words">{submission.appeal?.answer ?? "No answer"}</dd>
      </dl>
      <fieldset className="mb-3 grid gap-2">
        <legend className="mb-1 text-sm font-semibold">Decision (final)</legend>
        <label className="flex items-center gap-2">
          <input type="radio" className="radio radio-sm" value="uphold" {...form.register("decision")} />
          Uphold the rejection
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" className="radio radio-sm" value="overturn" {...form.register("decision")} />
          Overturn: approve and pay the worker
        </label>
      </fieldset>
      {overturning && (
        <p className="mb-3 text-sm">
          {submission.worker_name} is paid {coinCount(submission.payable_amount)} from the task's open slots
          or the buyer's balance; if the buyer cannot pay, the platform pays.
        </p>
      )}
      <Field name="answer" label="Your answer (both sides read it)" as="textarea" rows={3} />
      <FormError />
    </FormModal>
  );
}

/** Appeals the workers escalated, the longest waiting first (rule R22). */
export function AdminAppealsPage() {
  const [deciding, setDeciding] = useState<Submission | null>(null);
  const gate = useTwoFactorGate("deciding appeals");
  return (
    <Page title="Appeals">
      {gate.notice}
      <PagedList
        pages={trustQueries.escalatedAppeals}
        errorMessage="Failed to load appeals"
        empty={{ title: "No appeals waiting.", children: "Appeals workers escalate show here." }}
      >
        {(items) => (
          <DataTable numeric={["Pays"]} headers={["Task", "Worker", "Buyer", "Pays", "Appealed", ""]}>
            {items.map((submission) => (
              <tr key={submission.id}>
                <td className="font-medium">{submission.task_title}</td>
                <td>
                  <p>{submission.worker_name}</p>
                  <WorkerReputationLine reputation={submission.worker_reputation} />
                </td>
                <td>{submission.buyer_name}</td>
                <td>{coinCount(submission.payable_amount)}</td>
                <td>{submission.appeal && <When iso={submission.appeal.created_at} />}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    disabled={gate.locked}
                    title={gate.why}
                    onClick={() => setDeciding(submission)}
                  >
                    Decide
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      {deciding && <DecideModal submission={deciding} onClose={() => setDeciding(null)} />}
    </Page>
  );
}
