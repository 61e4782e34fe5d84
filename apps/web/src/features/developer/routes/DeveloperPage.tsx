import { Page } from "../../../components/ui/Page.tsx";
import { ApiKeysCard } from "../components/ApiKeysCard.tsx";
import { BatchesCard } from "../components/BatchesCard.tsx";
import { QuickStartCard } from "../components/QuickStartCard.tsx";
import { WebhooksCard } from "../components/WebhooksCard.tsx";

/** Issue 35: what a buyer's programs need, on one page: keys, webhooks, batches and the quick start. */
export function DeveloperPage() {
  return (
    <Page title="Developer" className="flex flex-col gap-6">
      <ApiKeysCard />
      <WebhooksCard />
      <BatchesCard />
      <QuickStartCard />
    </Page>
  );
}
