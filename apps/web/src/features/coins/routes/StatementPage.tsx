import { useInfiniteQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { ledgerEndpoints, urlOf, type StatementEntry, type StatementEntryKind } from "@taskmint/shared";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { MoreButton } from "../../../components/ui/MoreButton.tsx";
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

/**
 * One entry. Wide: date, what, coins, balance in columns. Phones: one row of two lines, what
 * and the coins on the first, when and the balance after on the second.
 */
function EntryRow({ entry }: { entry: StatementEntry }) {
  return (
    <tr className="max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:border-b max-sm:border-base-300 max-sm:px-4 max-sm:py-3 max-sm:last:border-0">
      <td className="max-sm:col-start-1 max-sm:row-start-2 max-sm:border-0 max-sm:p-0 max-sm:text-sm max-sm:text-base-content/70">
        <When iso={entry.created_at} />
        <span className="sm:hidden"> · {KIND_LABELS[entry.kind]}</span>
      </td>
      <td className="max-sm:col-start-1 max-sm:row-start-1 max-sm:border-0 max-sm:p-0">
        <div className="min-w-0">
          <p className="hidden text-xs font-semibold uppercase tracking-wide text-base-content/70 sm:block">
            {KIND_LABELS[entry.kind]}
          </p>
          <p className="break-words max-sm:line-clamp-2">{entry.description}</p>
          {entry.counterparty_name && (
            <p className="text-sm text-base-content/70 max-sm:truncate">
              {entry.amount < 0 ? "To" : "From"} {entry.counterparty_name}
            </p>
          )}
        </div>
      </td>
      <td className="font-semibold whitespace-nowrap max-sm:col-start-2 max-sm:row-start-1 max-sm:border-0 max-sm:p-0">
        <span className="sr-only">{entry.amount < 0 ? "Out: " : "In: "}</span>
        {signed(entry.amount)}
      </td>
      <td className="whitespace-nowrap max-sm:col-start-2 max-sm:row-start-2 max-sm:border-0 max-sm:p-0 max-sm:text-sm max-sm:text-base-content/70">
        <span className="sm:hidden">Balance </span>
        {formatCoins(entry.balance_after)}
      </td>
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
          <DataTable
            layout="rows"
            numeric={["Coins", "Balance"]}
            headers={["Date", "What", "Coins", "Balance"]}
          >
            {entries.map((entry) => (
              <EntryRow key={entry.id} entry={entry} />
            ))}
          </DataTable>
          <MoreButton pages={statement} label="Show older entries" />
        </>
      )}
    </Page>
  );
}
