import { useInfiniteQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { ledgerEndpoints, urlOf, type StatementEntry, type StatementEntryKind } from "@taskmint/shared";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { ListSkeleton } from "../../../components/ui/PageSkeleton.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { When } from "../../../components/ui/When.tsx";
import { useMe } from "../../../lib/auth.ts";
import { coinCount, formatCoins } from "../../../lib/format.ts";
import { coinQueries } from "../queries.ts";

const KIND_LABELS: Record<StatementEntryKind, string> = {
  sign_up_bonus: "Welcome bonus",
  purchase: "Purchase",
  task_funded: "Task funded",
  task_refund: "Refund",
  rejection_refund: "Refund",
  earning: "Earning",
  appeal_payment: "Appeal payment",
  bonus_sent: "Bonus sent",
  bonus_received: "Bonus received",
  withdrawal: "Withdrawal",
  withdrawal_returned: "Withdrawal returned",
  account_closed: "Account closed",
  adjustment: "Adjustment",
};

/** "+40" or "−60", with a true minus sign; a movement of nothing has no sign. */
const signed = (amount: number) =>
  amount > 0 ? `+${formatCoins(amount)}` : amount < 0 ? `−${formatCoins(-amount)}` : "0";

function EntryRow({ entry }: { entry: StatementEntry }) {
  return (
    <tr>
      <td>
        <When iso={entry.created_at} />
      </td>
      <td>
        {/* One block, so a phone's card stacks its lines under each other. */}
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-wide text-base-content/70">
            {KIND_LABELS[entry.kind]}
          </p>
          <p className="break-words">{entry.description}</p>
          {entry.counterparty_name && (
            <p className="text-sm text-base-content/70">
              {entry.amount < 0 ? "To" : "From"} {entry.counterparty_name}
            </p>
          )}
        </div>
      </td>
      <td className="font-semibold">
        <span className="sr-only">{entry.amount < 0 ? "Out: " : "In: "}</span>
        {signed(entry.amount)}
      </td>
      <td>{formatCoins(entry.balance_after)}</td>
    </tr>
  );
}

/** Every movement of the user's coins, newest first, like a bank statement (issue 19). */
export function StatementPage() {
  const { data: user } = useMe();
  const statement = useInfiniteQuery(coinQueries.statement());
  const entries = statement.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Page
      title="Statement"
      className="mx-auto max-w-4xl"
      actions={
        <a href={urlOf(ledgerEndpoints.downloadMyStatement)} download className="btn btn-sm">
          <Download className="size-4" aria-hidden="true" />
          Download CSV
        </a>
      }
    >
      <p className="mb-4 text-base-content/80">
        Every coin that came in or went out of your balance, newest first.
        {user && (
          <>
            {" "}
            Your balance now: <strong>{coinCount(user.coins)}</strong>.
          </>
        )}
      </p>
      {statement.isPending ? (
        <ListSkeleton />
      ) : statement.isError ? (
        <ErrorState message="Failed to load your statement" onRetry={() => void statement.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState title="No coin movements yet." />
      ) : (
        <>
          <DataTable numeric={["Coins", "Balance"]} headers={["Date", "What", "Coins", "Balance"]}>
            {entries.map((entry) => (
              <EntryRow key={entry.id} entry={entry} />
            ))}
          </DataTable>
          {statement.hasNextPage && (
            <div className="mt-6 text-center">
              <button
                type="button"
                className="btn"
                onClick={() => void statement.fetchNextPage()}
                disabled={statement.isFetchingNextPage}
              >
                {statement.isFetchingNextPage && (
                  <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                )}
                Show older entries
              </button>
            </div>
          )}
        </>
      )}
    </Page>
  );
}
