import { DataTable } from "../../../components/ui/DataTable.tsx";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { StatusBadge } from "../../../components/ui/StatusBadge.tsx";
import { coinCount, formatDollars } from "../../../lib/format.ts";
import { coinQueries } from "../queries.ts";
import { When } from "../../../components/ui/When.tsx";

export function PaymentHistoryPage() {
  return (
    <Page title="Payment history">
      <PagedList
        pages={coinQueries.payments}
        errorMessage="Failed to load your payments"
        empty={{
          title: "You have not bought coins yet.",
          link: { to: paths.dashboard.purchaseCoin, label: "Buy coins" },
        }}
      >
        {(items) => (
          <DataTable
            numeric={["Amount", "Coins"]}
            headers={["Payment id", "Status", "Amount", "Coins", "Date"]}
          >
            {items.map((payment) => (
              <tr key={payment.id}>
                <td className="font-mono text-xs" title={payment.paymentId}>
                  {payment.paymentId.slice(0, 15)}
                </td>
                <td>
                  <StatusBadge status={payment.status} />
                  {payment.failure_reason && (
                    <p className="mt-1 max-w-xs text-xs text-error">{payment.failure_reason}</p>
                  )}
                </td>
                <td>{formatDollars(payment.amount)}</td>
                <td>{coinCount(payment.coins)}</td>
                <td>
                  <When iso={payment.transactionDate} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
    </Page>
  );
}
