import { SectionCard } from "../../components/ui/SectionCard.tsx";
import { useQuery } from "@tanstack/react-query";
import { Check, X } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { BuyerStats, User } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { coinQueries } from "../../features/coins/queries.ts";
import { coinCount } from "../../lib/format.ts";

interface Step {
  id: string;
  title: string;
  text: string;
  done: boolean;
}

/**
 * A new buyer's first steps (issue 34): confirm the email, buy coins, post a first task; each
 * ticked when done, and the whole list gone once all are. "Post your first task" leads.
 */
export function BuyerStartList({ user, stats }: { user: User; stats: BuyerStats }) {
  const payments = useQuery(coinQueries.payments(1));
  // A buyer who never needs to buy coins may put the list away for good (on this browser).
  const hiddenKey = `taskmint:start-list-hidden:${user.id}`;
  const [hidden, setHidden] = useState(() => localStorage.getItem(hiddenKey) === "1");
  const bought = payments.data?.items.some((payment) => payment.status === "completed") ?? false;
  const posted = stats.totalTasks > 0;
  const steps: Step[] = [
    {
      id: "email",
      title: "Confirm your email",
      text: user.email_verified
        ? "Done: your address is confirmed."
        : `Open the link we sent to ${user.email}.`,
      done: user.email_verified,
    },
    {
      id: "coins",
      title: "Buy coins",
      text: bought
        ? "Done: your coins are in your balance."
        : `You have ${coinCount(user.coins)} to start with; buy more when a task needs them.`,
      done: bought,
    },
    {
      id: "task",
      title: "Post your first task",
      text: "Say what to do and what proof to send. Its pay is set aside when you post it.",
      done: posted,
    },
  ];
  // Wait for the payments before deciding: the list must not flash away or in.
  if (hidden || payments.isPending || steps.every((step) => step.done)) return null;
  const doneCount = steps.filter((step) => step.done).length;

  return (
    <SectionCard
      id="start-list"
      heading="Get started"
      className="mb-6"
      testId="buyer-start-list"
      aside={
        <div className="flex items-center gap-1">
          <p className="text-sm text-base-content/70">
            {doneCount} of {steps.length} done
          </p>
          <button
            type="button"
            className="btn btn-ghost btn-circle size-11"
            aria-label="Hide the start list"
            onClick={() => {
              localStorage.setItem(hiddenKey, "1");
              setHidden(true);
            }}
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      }
    >
      <progress
        className="progress progress-primary h-1.5 w-full"
        value={doneCount}
        max={steps.length}
        aria-label="Steps done"
      />
      <ol className="space-y-3">
        {steps.map((step, index) => (
          <li key={step.id} className="flex gap-3" data-done={step.done}>
            <span
              className={`flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                step.done ? "bg-success text-success-content" : "bg-base-200 text-base-content"
              }`}
              aria-hidden="true"
            >
              {step.done ? <Check className="size-4" /> : index + 1}
            </span>
            <div className="min-w-0">
              <p className={`font-semibold ${step.done ? "text-base-content/70 line-through" : ""}`}>
                {step.title}
                <span className="sr-only">{step.done ? " (done)" : " (to do)"}</span>
              </p>
              <p className="break-words text-sm text-base-content/70">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        {!posted && (
          <Link to={paths.dashboard.addTasks} className="btn btn-primary min-h-11">
            Post your first task
          </Link>
        )}
        {!bought && (
          <Link to={paths.dashboard.purchaseCoin} className="btn btn-ghost min-h-11">
            Buy coins
          </Link>
        )}
      </div>
    </SectionCard>
  );
}
