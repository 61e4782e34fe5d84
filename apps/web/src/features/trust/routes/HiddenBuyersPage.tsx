import type { HiddenBuyer } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { When } from "../../../components/ui/When.tsx";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { useUnhideBuyer } from "../api.ts";
import { trustQueries } from "../queries.ts";

/** Buyers whose tasks the worker chose not to see (rule R23); showing them again asks first. */
export function HiddenBuyersPage() {
  const unhide = useConfirmedDeletion(useUnhideBuyer(), {
    variables: (hidden: HiddenBuyer) => hidden.buyer_id,
    success: (_, hidden) => `${hidden.buyer_name}'s tasks are back in your task list`,
    failure: "Failed to show the buyer's tasks again",
  });
  return (
    <Page title="Hidden buyers">
      <PagedList
        pages={trustQueries.hiddenBuyers}
        errorMessage="Failed to load hidden buyers"
        empty={{
          title: "You have not hidden any buyer.",
          children: "To hide a buyer's tasks, open one of their tasks and choose Hide this buyer's tasks.",
          link: { to: paths.dashboard.taskList, label: "Find a task" },
        }}
      >
        {(items) => (
          <DataTable headers={["Buyer", "Hidden", ""]}>
            {items.map((hidden) => (
              <tr key={hidden.buyer_id}>
                <td className="font-medium">{hidden.buyer_name}</td>
                <td>
                  <When iso={hidden.created_at} />
                </td>
                <td>
                  <button type="button" className="btn btn-sm" onClick={() => unhide.ask(hidden)}>
                    Show their tasks
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      <ConfirmDialog
        deletion={unhide}
        title={(hidden) => `Show ${hidden.buyer_name}'s tasks again?`}
        message={() => "Their open tasks will appear in your task list again."}
        confirmLabel={() => "Show their tasks"}
      />
    </Page>
  );
}
