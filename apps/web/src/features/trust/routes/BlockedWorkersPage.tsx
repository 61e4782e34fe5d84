import type { BlockedWorker } from "@taskmint/shared";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { When } from "../../../components/ui/When.tsx";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { useUnblockWorker } from "../api.ts";
import { trustQueries } from "../queries.ts";

/** The buyer's blocked workers (rule R23), with their private notes; unblocking asks first. */
export function BlockedWorkersPage() {
  const unblock = useConfirmedDeletion(useUnblockWorker(), {
    variables: (block: BlockedWorker) => block.worker_id,
    success: (_, block) => `${block.worker_name} can work on your tasks again`,
    failure: "Failed to unblock the worker",
  });
  return (
    <Page title="Blocked workers">
      <PagedList
        pages={trustQueries.blocks}
        errorMessage="Failed to load blocked workers"
        empty={{
          title: "You have not blocked anyone.",
          children: "To block a worker, open their submission from Buyer home and choose Block worker.",
        }}
      >
        {(items) => (
          <DataTable headers={["Worker", "Your note", "Blocked", ""]}>
            {items.map((block) => (
              <tr key={block.worker_id}>
                <td className="font-medium">{block.worker_name}</td>
                <td className="max-w-xs break-words">{block.note ?? "—"}</td>
                <td>
                  <When iso={block.created_at} />
                </td>
                <td>
                  <button type="button" className="btn btn-sm" onClick={() => unblock.ask(block)}>
                    Unblock
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      <ConfirmDialog
        deletion={unblock}
        title={(block) => `Unblock ${block.worker_name}?`}
        message={() => "They will see your tasks again and may start and submit to them."}
        confirmLabel={() => "Unblock"}
      />
    </Page>
  );
}
