import { useQuery } from "@tanstack/react-query";
import { MAX_WEBHOOKS_PER_BUYER, WEBHOOK_RETRY_HOURS, type Webhook } from "@taskmint/shared";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { ListSkeleton } from "../../../components/ui/PageSkeleton.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { useDeleteWebhook } from "../api.ts";
import { developerQueries } from "../queries.ts";
import { AddWebhookForm } from "./AddWebhookForm.tsx";
import { WebhookItem } from "./WebhookItem.tsx";
import { SectionCard } from "../../../components/ui/SectionCard.tsx";

/** The buyer's webhook endpoints: add one (its secret shown once), pause, test, delete, and each one's log. */
export function WebhooksCard() {
  const webhooks = useQuery(developerQueries.webhooks());
  const deleting = useConfirmedDeletion(useDeleteWebhook(), {
    variables: (webhook: Webhook) => webhook.id,
    success: () => "Endpoint deleted",
    failure: "Failed to delete the endpoint",
  });
  const count = webhooks.data?.length ?? 0;
  return (
    <SectionCard id="webhooks" heading="Webhooks">
      <p className="text-sm text-base-content/70">
        TaskMint posts your tasks&apos; events (a new submission, a task completed…) to your endpoints, signed
        by the Standard Webhooks rules, and retries a failed delivery for {WEBHOOK_RETRY_HOURS} hours. Up to{" "}
        {MAX_WEBHOOKS_PER_BUYER} endpoints.
      </p>
      <AddWebhookForm full={count >= MAX_WEBHOOKS_PER_BUYER} />
      {webhooks.isPending ? (
        <ListSkeleton rows={2} />
      ) : webhooks.isError ? (
        <ErrorState
          message={errorMessage(webhooks.error, "Could not load your endpoints")}
          onRetry={() => void webhooks.refetch()}
        />
      ) : count === 0 ? (
        <EmptyState title="No webhook endpoints yet.">
          Add one above to hear of events as they happen.
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Your webhook endpoints">
          {webhooks.data.map((webhook, index) => (
            <WebhookItem
              key={webhook.id}
              webhook={webhook}
              initiallyOpen={index === 0}
              onDelete={() => deleting.ask(webhook)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        deletion={deleting}
        title={() => "Delete this endpoint?"}
        message={(webhook) =>
          `${webhook.url} gets no more events; deliveries still waiting are not sent. This cannot be undone.`
        }
        confirmLabel={() => "Yes, delete it"}
      />
    </SectionCard>
  );
}
