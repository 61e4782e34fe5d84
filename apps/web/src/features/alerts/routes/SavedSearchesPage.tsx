import { useQuery } from "@tanstack/react-query";
import { MAX_SAVED_SEARCHES, type SavedSearch } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { ListSkeleton } from "../../../components/ui/PageSkeleton.tsx";
import { SectionCard } from "../../../components/ui/SectionCard.tsx";
import { EmptyState, ErrorState } from "../../../components/ui/States.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { useDeleteSavedSearch } from "../api.ts";
import { PhoneNotificationsCard } from "../components/PhoneNotificationsCard.tsx";
import { QuietHoursCard } from "../components/QuietHoursCard.tsx";
import { SavedSearchItem } from "../components/SavedSearchItem.tsx";
import { usePushDevice } from "../push.ts";
import { alertsQueries } from "../queries.ts";

/** The searches, each with its new tasks and alerts; deleting one asks first. */
function SavedSearchList({ push }: { push: ReturnType<typeof usePushDevice> }) {
  const searches = useQuery(alertsQueries.savedSearches());
  const deleting = useConfirmedDeletion(useDeleteSavedSearch(), {
    variables: (search: SavedSearch) => search,
    success: (_, search) => `Deleted ${search.name}`,
    failure: "Could not delete the search, try again",
  });
  const count = searches.data?.length ?? 0;
  return (
    <SectionCard
      id="searches"
      heading="Your searches"
      aside={
        count > 0 && (
          <span className="text-sm text-base-content/70">
            {count} of {MAX_SAVED_SEARCHES}
          </span>
        )
      }
    >
      {searches.isPending ? (
        <ListSkeleton rows={3} />
      ) : searches.isError ? (
        <ErrorState
          message={errorMessage(searches.error, "Could not load your saved searches")}
          onRetry={() => void searches.refetch()}
        />
      ) : count === 0 ? (
        <EmptyState
          title="No saved searches yet."
          link={{ to: paths.dashboard.taskList, label: "Go to the task list" }}
        >
          A saved search watches for new tasks for you and tells you by the bell, mail or a phone
          notification. On the task list, search or filter, then choose Save this search.
        </EmptyState>
      ) : (
        <ul className="-mx-4 divide-y divide-base-300 sm:-mx-6">
          {searches.data.map((search) => (
            <SavedSearchItem
              key={search.id}
              search={search}
              push={push}
              onDelete={() => deleting.ask(search)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        deletion={deleting}
        title={(search) => `Delete ${search.name}?`}
        message={() => "You will hear of no more new tasks from this search."}
      />
    </SectionCard>
  );
}

/** Issue 36: the worker's saved searches, and how this device tells them of new tasks. */
export function SavedSearchesPage() {
  const push = usePushDevice();
  return (
    <Page title="Saved searches">
      <div className="flex flex-col gap-6">
        <SavedSearchList push={push} />
        <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
          <PhoneNotificationsCard push={push} />
          <QuietHoursCard />
        </div>
      </div>
    </Page>
  );
}
