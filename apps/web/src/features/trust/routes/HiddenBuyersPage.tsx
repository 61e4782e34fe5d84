import { paths } from "@taskmint/shared/routes";
import { useUnhideBuyer } from "../api.ts";
import { KeptAwayList } from "../components/KeptAwayList.tsx";
import { trustQueries } from "../queries.ts";

/** Buyers whose tasks the worker chose not to see (rule R23); showing them again asks first. */
export function HiddenBuyersPage() {
  return (
    <KeptAwayList
      title="Hidden buyers"
      pages={trustQueries.hiddenBuyers}
      errorMessage="Failed to load hidden buyers"
      empty={{
        title: "You have not hidden any buyer.",
        children: "To hide a buyer's tasks, open one of their tasks and choose Hide this buyer's tasks.",
        link: { to: paths.dashboard.taskList, label: "Find a task" },
      }}
      who={{ header: "Buyer", idOf: (hidden) => hidden.buyer_id, nameOf: (hidden) => hidden.buyer_name }}
      sinceHeader="Hidden"
      letBack={useUnhideBuyer()}
      action="Show their tasks"
      question={(name) => `Show ${name}'s tasks again?`}
      consequence="Their open tasks will appear in your task list again."
      done={(name) => `${name}'s tasks are back in your task list`}
      failure="Failed to show the buyer's tasks again"
    />
  );
}
