import { paths } from "@taskmint/shared/routes";
import { BookOpen } from "lucide-react";
import { API_KEY_REQUESTS_PER_MINUTE } from "@taskmint/shared";
import { SectionCard } from "../../../components/ui/SectionCard.tsx";

/** Where a program starts: the API's reference and its quick start, served by the server. */
export function QuickStartCard() {
  return (
    <SectionCard id="quick-start" heading="Quick start">
      <p className="text-sm text-base-content/70">
        The API reference has a quick start: create a key here, post a task with curl, check a webhook&apos;s
        signature in Node. Each key may make {API_KEY_REQUESTS_PER_MINUTE} requests a minute.
      </p>
      <div>
        <a className="btn btn-outline" href={paths.apiDocs} target="_blank" rel="noreferrer">
          <BookOpen className="size-4" aria-hidden="true" />
          Open the API reference
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </div>
    </SectionCard>
  );
}
