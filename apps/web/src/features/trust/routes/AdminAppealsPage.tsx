import { useState } from "react";
import { toast } from "react-toastify";
import { useWatch } from "react-hook-form";
import { adminAppealDecisionSchema, type AdminAppealDecision, type AppealCase } from "@taskmint/shared";
import { Field, FormError, SubmitButton, useZodForm } from "../../../components/form/Form.tsx";
import { FormModal } from "../../../components/form/FormModal.tsx";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { When } from "../../../components/ui/When.tsx";
import { coinCount } from "../../../lib/format.ts";
import { useTwoFactorGate } from "../../../components/two-factor/TwoFactorNeeded.tsx";
import { useDecideAppeal } from "../api.ts";
import { AppealEvidence } from "../components/AppealEvidence.tsx";
import { WorkerReputationLine } from "../components/Reputation.tsx";
import { trustQueries } from "../queries.ts";

function DecideModal({ appeal, onClose }: { appeal: AppealCase; onClose: () => void }) {
  const decide = useDecideAppeal();
  // Nothing chosen at first: the admin reads the evidence, then picks (rule R22, final).
  const form = useZodForm(adminAppealDecisionSchema, { answer: "" });
  const decision = useWatch({ control: form.control, name: "decision" });
  const choiceError = form.formState.errors.decision?.message;
  const pay = coinCount(appeal.payable_amount);
  const submit = async (chosen: AdminAppealDecision) => {
    const decided = await decide.mutateAsync({ id: appeal.id, ...chosen });
    toast.success(
      chosen.decision === "overturn"
        ? `Overturned: ${appeal.worker_name} was paid ${pay}${decided.appeal?.paid_from === "platform" ? " by the platform" : ""}`
        : "Rejection kept; both sides have your answer",
    );
    onClose();
  };
  return (
    <FormModal
      form={form}
      onSubmit={submit}
      title={`Decide the appeal on “${appeal.task_title}”`}
      onClose={onClose}
      wide
      actions={
        <SubmitButton className={decision === "overturn" ? "btn btn-success" : "btn btn-primary"}>
          {decision === "overturn"
            ? `Overturn and pay ${pay}`
            : decision === "uphold"
              ? "Keep the rejection"
              : "Send decision"}
        </SubmitButton>
      }
    >
      <AppealEvidence appeal={appeal} />
      <fieldset
        className="mt-5 grid gap-2"
        aria-invalid={Boolean(choiceError)}
        aria-describedby={choiceError ? "decision-error" : undefined}
      >
        <legend className="mb-1 font-semibold">Your decision (final)</legend>
        {CHOICES.map((choice) => (
          <label
            key={choice.value}
            className="flex min-h-11 cursor-pointer items-start gap-3 rounded-box border border-base-300 p-3 has-checked:border-primary has-checked:bg-primary/5"
          >
            <input
              type="radio"
              className="radio radio-sm mt-0.5"
              value={choice.value}
              {...form.register("decision")}
            />
            <span className="text-sm">
              <span className="block font-medium">{choice.label}</span>
              <span className="text-base-content/70">{choice.hint(appeal.worker_name, pay)}</span>
            </span>
          </label>
        ))}
        {choiceError && (
          <p id="decision-error" role="alert" className="text-sm text-error">
            {choiceError}
          </p>
        )}
      </fieldset>
      <Field name="answer" label="Your answer (both sides read it)" as="textarea" rows={3} />
      <FormError />
    </FormModal>
  );
}

const CHOICES = [
  {
    value: "uphold",
    label: "Keep the rejection",
    hint: () => "The worker is not paid. The decision is final.",
  },
  {
    value: "overturn",
    label: "Overturn: approve and pay the worker",
    hint: (worker: string, pay: string) =>
      `${worker} is paid ${pay} from the task's open slots or the buyer's balance; if the buyer cannot pay, the platform pays.`,
  },
] as const;

/** Appeals the workers escalated, the longest waiting first (rule R22). */
export function AdminAppealsPage() {
  const [deciding, setDeciding] = useState<AppealCase | null>(null);
  const gate = useTwoFactorGate("decide appeals", "decide");
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
                  {gate.locked ? (
                    gate.lockedAction
                  ) : (
                    <button
                      type="button"
                      className="btn btn-primary btn-sm"
                      aria-label={`Decide the appeal on “${submission.task_title}”`}
                      onClick={() => setDeciding(submission)}
                    >
                      Decide
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      {deciding && <DecideModal appeal={deciding} onClose={() => setDeciding(null)} />}
    </Page>
  );
}
