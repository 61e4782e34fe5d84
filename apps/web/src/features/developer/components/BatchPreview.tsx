import type { BatchPreview as Preview } from "@taskmint/shared";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { coinCount } from "../../../lib/format.ts";

/** Each problem of the file, by row and field, so the buyer can fix the CSV and check it again. */
function RowErrors({ errors }: { errors: Preview["errors"] }) {
  return (
    <div className="flex flex-col gap-2">
      <p role="alert" className="font-medium text-error">
        {errors.length === 1 ? "1 problem" : `${errors.length} problems`} to fix before anything can be
        posted:
      </p>
      <DataTable compact headers={["Row", "Field", "Problem"]}>
        {errors.map((error, index) => (
          <tr key={index}>
            <td>{error.row === 0 ? "File" : error.row}</td>
            <td className="font-mono text-sm break-all">{error.field}</td>
            <td className="break-words">{error.message}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

/** The dry run's answer: how many rows, their problems or the first rows as they would be posted, the cost. */
export function BatchPreview({ preview, coins }: { preview: Preview; coins: number | undefined }) {
  const short = coins !== undefined && preview.total_cost > coins;
  return (
    <div className="flex flex-col gap-3" data-testid="batch-preview">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <div className="rounded-box bg-base-200 p-3">
          <dt className="text-sm text-base-content/70">Rows</dt>
          <dd className="text-lg font-bold">{preview.rows.toLocaleString("en-US")}</dd>
        </div>
        <div className="rounded-box bg-base-200 p-3">
          <dt className="text-sm text-base-content/70">Total cost</dt>
          <dd className="text-lg font-bold">{coinCount(preview.total_cost)}</dd>
        </div>
        {coins !== undefined && (
          <div className={`rounded-box p-3 ${short ? "bg-error/10" : "bg-base-200"}`}>
            <dt className="text-sm text-base-content/70">Your coins</dt>
            <dd className="text-lg font-bold">{coinCount(coins)}</dd>
          </div>
        )}
      </dl>
      {short && (
        <p role="alert" className="text-sm text-error">
          The batch costs {coinCount(preview.total_cost - (coins ?? 0))} more than you have. Buy coins or post
          fewer rows.
        </p>
      )}
      {preview.errors.length > 0 ? (
        <RowErrors errors={preview.errors} />
      ) : (
        preview.preview.length > 0 && (
          <DataTable
            compact
            numeric={["Workers", "Pay each", "Cost"]}
            headers={["Row", "Title", "Workers", "Pay each", "Cost", "Due"]}
          >
            {preview.preview.map((row) => (
              <tr key={row.row}>
                <td>{row.row}</td>
                <td className="break-words">{row.task_title}</td>
                <td>{row.required_workers}</td>
                <td>{row.payable_amount}</td>
                <td>{row.cost}</td>
                <td className="whitespace-nowrap">{row.completion_date}</td>
              </tr>
            ))}
          </DataTable>
        )
      )}
      {preview.errors.length === 0 && preview.preview.length < preview.rows && (
        <p className="text-sm text-base-content/70">
          The first {preview.preview.length} rows are shown; all {preview.rows.toLocaleString("en-US")} are
          posted.
        </p>
      )}
    </div>
  );
}
