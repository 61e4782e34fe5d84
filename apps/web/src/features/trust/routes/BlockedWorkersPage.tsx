import { useUnblockWorker } from "../api.ts";
import { KeptAwayList } from "../components/KeptAwayList.tsx";
import { trustQueries } from "../queries.ts";

/** The buyer's blocked workers (rule R23), with their private notes; unblocking asks first. */
export function BlockedWorkersPage() {
  return (
    <KeptAwayList
      title="Blocked workers"
      pages={trustQueries.blocks}
      errorMessage="Failed to load blocked workers"
      empty={{
        title: "You have not blocked anyone.",
        children: "To block a worker, open their submission from Buyer home and choose Block worker.",
      }}
      who={{ header: "Worker", idOf: (block) => block.worker_id, nameOf: (block) => block.worker_name }}
      extraColumns={[{ header: "Your note", cell: (block) => block.note ?? "—" }]}
      sinceHeader="Blocked"
      letBack={useUnblockWorker()}
      action="Unblock"
      question={(name) => `Unblock ${name}?`}
      consequence="They will see your tasks again and may start and submit to them."
      done={(name) => `${name} can work on your tasks again`}
      failure="Failed to unblock the worker"
    />
  );
}
