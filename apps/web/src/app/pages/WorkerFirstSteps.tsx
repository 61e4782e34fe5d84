import { SectionCard } from "../../components/ui/SectionCard.tsx";
import { Search } from "lucide-react";
import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";

const STEPS = [
  {
    title: "Find a task",
    text: "The task list shows what each task pays and how long it takes. Pick one you can do now.",
  },
  {
    title: "Start the task",
    text: "Starting keeps a slot for you while you work, within the task's time limit.",
  },
  {
    title: "Submit your proof",
    text: "Send what the task asks for. The buyer reviews it; work left unreviewed for 3 days is approved.",
  },
];

/** A worker with no submission yet: how to find and start a first task (issue 34). */
export function WorkerFirstSteps() {
  return (
    <SectionCard id="first-steps" heading="Your first task in three steps" testId="worker-first-steps">
      <ol className="space-y-3">
        {STEPS.map((step, index) => (
          <li key={step.title} className="flex gap-3">
            <span
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-content"
              aria-hidden="true"
            >
              {index + 1}
            </span>
            <div className="min-w-0">
              <p className="font-semibold">{step.title}</p>
              <p className="text-sm text-base-content/70">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <Link to={paths.dashboard.taskList} className="btn btn-primary min-h-11 self-start">
        <Search className="size-4" aria-hidden="true" />
        Find your first task
      </Link>
    </SectionCard>
  );
}
