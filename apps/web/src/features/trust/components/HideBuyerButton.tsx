import { EllipsisVertical, EyeOff } from "lucide-react";
import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "react-toastify";
import { type TaskDetails } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { errorMessage } from "../../../lib/api.ts";
import { useDropdown } from "../../../lib/useDropdown.ts";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { useHideBuyer } from "../api.ts";

/**
 * A task's "More" menu for the worker: hiding the buyer (rule R23: asked first, then back to the
 * task list), out of the brief's way. Escape or a click outside closes it, the focus back on "More".
 */
export function HideBuyerButton({ task }: { task: TaskDetails }) {
  const navigate = useNavigate();
  const hideBuyer = useHideBuyer();
  const menuId = useId();
  const [asking, setAsking] = useState<TaskDetails | null>(null);
  const { open, close, box, triggerProps } = useDropdown();
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
    <div className="relative shrink-0" ref={box}>
      <button
        {...triggerProps}
        className="btn btn-ghost btn-square btn-sm"
        aria-label="More actions"
        aria-controls={menuId}
      >
        <EllipsisVertical className="size-5" aria-hidden="true" />
      </button>
      {open && (
        <ul
          id={menuId}
          className="menu absolute right-0 z-20 mt-1 w-64 rounded-box bg-base-100 p-2 shadow-lg ring-1 ring-base-300"
        >
          <li>
            <button
              type="button"
              // The menu's only entry takes the focus as it opens, so a keyboard is straight in it.
              ref={(button) => button?.focus()}
              onClick={() => {
                close();
                hide.ask(task);
              }}
            >
              <EyeOff className="size-4" aria-hidden="true" />
              Hide this buyer's tasks
            </button>
          </li>
        </ul>
      )}
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
