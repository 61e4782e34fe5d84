import { EyeOff } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "react-toastify";
import { type TaskDetails } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { errorMessage } from "../../../lib/api.ts";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { useHideBuyer } from "../api.ts";

/** Rule R23: the worker stops seeing this buyer's tasks (asked first), back to the task list. */
export function HideBuyerButton({ task }: { task: TaskDetails }) {
  const navigate = useNavigate();
  const hideBuyer = useHideBuyer();
  const [asking, setAsking] = useState<TaskDetails | null>(null);
  const hide = {
    item: asking,
    busy: hideBuyer.isPending,
    cancel: () => setAsking(null),
    ask: setAsking,
    confirm: async () => {
      if (!asking) return;
      try {
        await hideBuyer.mutateAsync(asking.buyer_id);
      } catch (error) {
        toast.error(errorMessage(error, "Failed to hide the buyer's tasks"));
        setAsking(null);
        return;
      }
      toast.success(`${asking.user_name}'s tasks are hidden. Show them again from Hidden buyers.`);
      await navigate(paths.dashboard.taskList);
    },
  };
  return (
    <div className="card-actions mt-3">
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => hide.ask(task)}>
        <EyeOff className="size-4" aria-hidden="true" />
        Hide this buyer's tasks
      </button>
      <ConfirmDialog
        deletion={hide}
        title={(hidden) => `Hide all of ${hidden.user_name}'s tasks?`}
        message={() =>
          "They will no longer appear in your task list. Work you already sent them stays in My submissions."
        }
        confirmLabel={() => "Hide their tasks"}
      />
    </div>
  );
}
