import { ChevronDown } from "lucide-react";
import { useState } from "react";
import { toast } from "react-toastify";
import type { Webhook } from "@taskmint/shared";
import { ButtonSpinner } from "../../../components/ui/Spinner.tsx";
import { When } from "../../../components/ui/When.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useTestWebhook, useUpdateWebhook } from "../api.ts";
import { DeliveriesList } from "./DeliveriesList.tsx";

/** Runs a mutation from a button, telling how it went in a toast. */
function useToasted<V>(mutation: { mutate: (v: V, o: object) => void; isPending: boolean }, done: string) {
  return {
    busy: mutation.isPending,
    run: (variables: V) =>
      mutation.mutate(variables, {
        onSuccess: () => toast.success(done),
        onError: (error: unknown) => toast.error(errorMessage(error, "That did not work, try again")),
      }),
  };
}

/** One endpoint: where it posts, what, whether it is paused; its actions and its delivery log. */
export function WebhookItem({
  webhook,
  initiallyOpen,
  onDelete,
}: {
  webhook: Webhook;
  initiallyOpen: boolean;
  onDelete: () => void;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const paused = webhook.status === "paused";
  const update = useToasted(useUpdateWebhook(), paused ? "Endpoint resumed" : "Endpoint paused");
  const test = useToasted(useTestWebhook(), "Test event sent");
  const logId = `deliveries-${webhook.id}`;
  return (
    <li className="rounded-box border border-base-300 p-3 sm:p-4" aria-label={webhook.url}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1 basis-60">
          <p className="font-mono text-sm font-medium break-all">{webhook.url}</p>
          <p className="mt-1 text-sm text-base-content/70">
            <span className={`badge badge-sm mr-2 ${paused ? "badge-warning" : "badge-success"}`}>
              {webhook.status}
            </span>
            {paused && webhook.paused_at ? (
              <>
                since <When iso={webhook.paused_at} />
              </>
            ) : (
              <>
                added <When iso={webhook.created_at} />
              </>
            )}
          </p>
          <p className="mt-1 text-sm break-words text-base-content/70">{webhook.events.join(", ")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={update.busy}
            onClick={() => update.run({ id: webhook.id, active: paused })}
          >
            {update.busy && <ButtonSpinner />}
            {paused ? "Resume" : "Pause"}
          </button>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={test.busy}
            onClick={() => test.run(webhook.id)}
          >
            {test.busy && <ButtonSpinner />}
            Send test event
          </button>
          <button type="button" className="btn btn-outline btn-error btn-sm" onClick={onDelete}>
            Delete
          </button>
        </div>
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-sm mt-2 -ml-2"
        aria-expanded={open}
        aria-controls={logId}
        onClick={() => setOpen(!open)}
      >
        <ChevronDown
          className={`size-4 transition-transform ${open ? "rotate-180" : ""}`}
          aria-hidden="true"
        />
        Deliveries
      </button>
      <div id={logId} hidden={!open} className="mt-2">
        {open && <DeliveriesList webhookId={webhook.id} />}
      </div>
    </li>
  );
}
