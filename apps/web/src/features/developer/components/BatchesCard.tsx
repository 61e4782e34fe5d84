import { Download } from "lucide-react";
import { batchesEndpoints, urlOf } from "@taskmint/shared";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { SectionCard } from "../../../components/ui/SectionCard.tsx";
import { When } from "../../../components/ui/When.tsx";
import { coinCount } from "../../../lib/format.ts";
import { developerQueries } from "../queries.ts";
import { BatchUpload } from "./BatchUpload.tsx";

/** Posting many tasks from one CSV file, and the batches posted so far with their results. */
export function BatchesCard() {
  return (
    <SectionCard id="batches" heading="Batches">
      <p className="text-sm text-base-content/70">
        Post many tasks at once from a CSV file: it is checked and priced first, then posted whole or not at
        all. A batch&apos;s results file lists every submission to its tasks.
      </p>
      <BatchUpload />
      <h3 className="font-semibold">Past batches</h3>
      <PagedList
        pages={developerQueries.batches}
        errorMessage="Could not load your batches"
        empty={{ title: "No batches yet.", children: "Check a CSV file above to post your first." }}
      >
        {(batches) => (
          <DataTable numeric={["Tasks", "Cost"]} headers={["Posted", "File", "Tasks", "Cost", "From", ""]}>
            {batches.map((batch) => (
              <tr key={batch.id}>
                <td>
                  <When iso={batch.created_at} />
                </td>
                <td className="break-all">{batch.file_name ?? "—"}</td>
                <td>{batch.tasks_created}</td>
                <td>{coinCount(batch.total_cost)}</td>
                <td>{batch.via_api_key ? "API key" : "This page"}</td>
                <td>
                  <a
                    className="btn btn-outline btn-sm"
                    href={urlOf(batchesEndpoints.getBatchResults, { params: { id: batch.id } })}
                    download
                  >
                    <Download className="size-4" aria-hidden="true" />
                    Results CSV
                    <span className="sr-only"> of the batch of {batch.file_name ?? batch.created_at}</span>
                  </a>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
    </SectionCard>
  );
}
