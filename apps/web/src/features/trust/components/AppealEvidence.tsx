import type { ReactNode } from "react";
import type { AppealCase, Submission } from "@taskmint/shared";
import { Screenshots } from "../../../components/ui/Screenshots.tsx";
import { plural } from "../../../lib/format.ts";
import { buyerReputationText, WorkerReputationLine } from "./Reputation.tsx";

/** One piece of evidence: a small heading and its text, full width (never a narrow column). */
function Evidence({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0">
      <h3 className="text-xs font-semibold tracking-wide text-base-content/70 uppercase">{title}</h3>
      <div className="mt-1 text-sm break-words whitespace-pre-line">{children}</div>
    </section>
  );
}

/** The worker's work as sent: their text and their screenshots, loaded at once in a dialog. */
export function SubmittedWork({ submission }: { submission: Submission }) {
  return (
    <Evidence title={`${submission.worker_name}'s submission`}>
      <p>{submission.submission_details}</p>
      {submission.attachments.length > 0 ? (
        <div className="mt-2">
          <Screenshots urls={submission.attachments} loading="eager" />
        </div>
      ) : (
        <p className="mt-1 text-base-content/70">No screenshots sent.</p>
      )}
    </Evidence>
  );
}

/**
 * Everything an admin decides an appeal on (rule R22): what the task asked for, the work as
 * sent, both sides' words in the order they came, and both people's records.
 */
export function AppealEvidence({ appeal }: { appeal: AppealCase }) {
  const answer = appeal.appeal?.answer;
  return (
    <div className="grid gap-4">
      <div className="grid gap-3 rounded-box bg-base-200 p-3">
        <Evidence title="The task">
          <details>
            <summary className="min-h-11 cursor-pointer py-2 font-medium">
              {appeal.task_title}: read the instructions
            </summary>
            <p>{appeal.task_detail}</p>
          </details>
        </Evidence>
        <Evidence title="What to submit">
          <p>{appeal.submission_info}</p>
          {appeal.proof_images > 0 && (
            <p className="mt-1 text-base-content/70">
              Asks for {plural(appeal.proof_images, "screenshot")} as proof.
            </p>
          )}
        </Evidence>
      </div>
      <SubmittedWork submission={appeal} />
      <Evidence title={`${appeal.buyer_name}'s reason for rejecting`}>{appeal.reason}</Evidence>
      <Evidence title={`${appeal.worker_name}'s appeal`}>{appeal.appeal?.message}</Evidence>
      <Evidence title={`${appeal.buyer_name}'s answer`}>
        {answer ?? <span className="text-base-content/70">No answer: the buyer did not reply in time.</span>}
      </Evidence>
      <Evidence title="Their records">
        <ul className="grid gap-2">
          <li className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="font-medium">{appeal.worker_name}</span>
            <WorkerReputationLine reputation={appeal.worker_reputation} />
          </li>
          <li className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="font-medium">{appeal.buyer_name}</span>
            <span className="text-base-content/80">{buyerReputationText(appeal.buyer_reputation)}</span>
          </li>
        </ul>
      </Evidence>
    </div>
  );
}
