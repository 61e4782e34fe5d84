import { useQuery } from "@tanstack/react-query";
import { CheckCheck, Settings } from "lucide-react";
import { Link } from "react-router";
import { toast } from "react-toastify";
import { paths } from "@taskmint/shared/routes";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useMarkAllRead, useMarkRead } from "../api.ts";
import { NotificationItem } from "../NotificationItem.tsx";
import { notificationQueries } from "../queries.ts";

const NONE_YET = {
  title: "No notifications yet.",
  children: "Approvals, payments, appeals and withdrawals show up here as they happen.",
};

/** Every notification, newest first, a page at a time; the bell shows the latest ten. */
export function NotificationsPage() {
  const latest = useQuery(notificationQueries.latest());
  const markAllRead = useMarkAllRead();
  const markRead = useMarkRead();
  const unread = latest.data?.unread ?? 0;
  return (
    <Page
      title="Notifications"
      className="mx-auto max-w-3xl"
      actions={
        <button
          type="button"
          className="btn btn-sm"
          disabled={unread === 0 || markAllRead.isPending}
          onClick={() =>
            markAllRead.mutate(undefined, {
              onSuccess: () => toast.success("All notifications marked read"),
              onError: (failure) => toast.error(errorMessage(failure, "Failed to mark them read")),
            })
          }
        >
          <CheckCheck className="size-4" aria-hidden="true" />
          Mark all read
        </button>
      }
    >
      <p className="mb-4 text-base-content/80">
        {unread > 0 ? `${unread} unread. ` : "All read. "}
        <Link to={`${paths.profile}#notifications`} className="link inline-flex items-center gap-1">
          <Settings className="size-4" aria-hidden="true" />
          Choose what also comes by mail
        </Link>
      </p>
      <PagedList
        pages={notificationQueries.page}
        errorMessage="Failed to load your notifications"
        empty={NONE_YET}
      >
        {(items) => (
          <ul
            className="divide-y divide-base-300 rounded-box bg-base-100 shadow-sm"
            aria-label="Notifications"
          >
            {items.map((item) => (
              <li key={item.id}>
                <NotificationItem item={item} onFollow={() => !item.read && markRead.mutate(item.id)} />
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </Page>
  );
}
