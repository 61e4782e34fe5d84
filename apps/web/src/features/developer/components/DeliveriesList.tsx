import { useInfiniteQuery } from "@tanstack/react-query";
import { toast } from "react-toastify";
import type { Delivery } from "@taskmint/shared";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { MoreButton } from "../../../components/ui/MoreButton.tsx";
import { ListSkeleton } from "../../../components/ui/PageSkeleton.tsx";
import { ButtonSpinner } from "../../../components/ui/Spinner.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { When } from "../../../components/ui/When.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useResendDelivery } from "../api.ts";
import { developerQueries } from "../queries.ts";

const STATUS_BADGE: Record<Delivery["status"], string> = {
  pending: "badge-warning",
  succeeded: "badge-success",
  failed: "badge-error",
};

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  const resend = useResendDelivery();
  return (
    <tr>
      <td className="font-mono text-sm break-all">{delivery.event}</td>
      <td>
        <span className={`badge badge-sm ${STATUS_BADGE[delivery.status]}`}>{delivery.status}</span>
      </td>
      <td>{delivery.attempts}</td>
      <td>{delivery.last_attempt_at ? <When iso={delivery.last_attempt_at} /> : "Not yet"}</td>
      <td>
        <button
          type="button"
          className="btn btn-outline btn-xs"
          aria-label={`Resend ${delivery.event} of ${new Date(delivery.created_at).toLocaleString()}`}
          disabled={resend.isPending}
          onClick={() =>
            resend.mutate(delivery.id, {
              onSuccess: () => toast.success("Sent again"),
              onError: (error) => toast.error(errorMessage(error, "Failed to resend")),
            })
          }
        >
          {resend.isPending && <ButtonSpinner />}
          Resend
        </button>
      </td>
    </tr>
  );
}

/** An endpoint's deliveries, newest first, with each one's attempts and a Resend. */
export function DeliveriesList({ webhookId }: { webhookId: string }) {
  const deliveries = useInfiniteQuery(developerQueries.deliveries(webhookId));
  const items = deliveries.data?.pages.flatMap((page) => page.items) ?? [];
  if (deliveries.isPending) return <ListSkeleton rows={2} />;
  if (deliveries.isError)
    return (
      <ErrorState
        message={errorMessage(deliveries.error, "Could not load the deliveries")}
        onRetry={() => void deliveries.refetch()}
      />
    );
  if (items.length === 0)
    return (
      <p className="text-sm text-base-content/70">
        No deliveries yet. They show here as your tasks&apos; events happen; Send test event sends one now.
      </p>
    );
  return (
    <div className="flex flex-col gap-3" data-testid="deliveries">
      <DataTable compact headers={["Event", "Status", "Attempts", "Last attempt", ""]}>
        {items.map((delivery) => (
          <DeliveryRow key={delivery.id} delivery={delivery} />
        ))}
      </DataTable>
      <MoreButton pages={deliveries} label="Show older deliveries" className="" small />
    </div>
  );
}
