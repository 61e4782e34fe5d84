import { useQuery } from "@tanstack/react-query";
import { Bell, CheckCheck } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { toast } from "react-toastify";
import { paths } from "@taskmint/shared/routes";
import { errorMessage } from "../../lib/api.ts";
import { useDropdown } from "../../lib/useDropdown.ts";
import { useMarkAllRead, useMarkRead, useNotificationStream } from "./api.ts";
import { NotificationItem } from "./NotificationItem.tsx";
import { notificationQueries } from "./queries.ts";

/**
 * The bell: unread count, the latest notifications with links, live updates, "Mark all read"
 * and the way to every notification. Phones: the panel spans the screen under the header;
 * wider, it hangs from the bell.
 */
export function NotificationBell() {
  const notifications = useQuery(notificationQueries.latest());
  const markAllRead = useMarkAllRead();
  const markRead = useMarkRead();
  useNotificationStream(true);
  const panelId = useId();
  const unread = notifications.data?.unread ?? 0;
  const { open, close, box, triggerProps } = useDropdown();
  const follow = (id: string, read: boolean) => {
    if (!read) markRead.mutate(id);
    close();
  };

  return (
    <div className="sm:relative" ref={box}>
      <button
        {...triggerProps}
        className="btn btn-ghost btn-circle"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : "Notifications"}
        aria-controls={panelId}
      >
        <span className="indicator">
          <Bell aria-hidden="true" />
          {unread > 0 && (
            <span className="badge indicator-item badge-error badge-xs" data-testid="unread-count">
              {unread > 99 ? "99+" : unread}
            </span>
          )}
        </span>
      </button>
      {open && (
        <section
          id={panelId}
          aria-labelledby={`${panelId}-title`}
          data-testid="notification-panel"
          className="fixed inset-x-2 top-[4.25rem] z-50 flex max-h-[calc(100dvh-5rem)] flex-col rounded-box bg-base-100 shadow-lg ring-1 ring-base-300 sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-2 sm:w-96 sm:max-h-[32rem]"
        >
          <div className="flex items-center justify-between gap-2 border-b border-base-300 py-1 pl-3 pr-1">
            <h2 id={`${panelId}-title`} className="font-semibold">
              Notifications
            </h2>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={unread === 0 || markAllRead.isPending}
              onClick={() =>
                markAllRead.mutate(undefined, {
                  onError: (failure) => toast.error(errorMessage(failure, "Failed to mark them read")),
                })
              }
            >
              <CheckCheck className="size-4" aria-hidden="true" />
              Mark all read
            </button>
          </div>
          {notifications.isPending ? (
            <p className="p-4 text-sm" role="status">
              Loading…
            </p>
          ) : notifications.isError ? (
            <p className="p-4 text-sm" role="alert">
              Could not load your notifications.{" "}
              <button type="button" className="link" onClick={() => void notifications.refetch()}>
                Try again
              </button>
            </p>
          ) : notifications.data.items.length > 0 ? (
            <ul className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
              {notifications.data.items.map((item) => (
                <li key={item.id} className="border-b border-base-200 last:border-0">
                  <NotificationItem item={item} onFollow={() => follow(item.id, item.read)} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="p-4 text-sm">No notifications yet. Approvals, payments and appeals show up here.</p>
          )}
          <Link
            to={paths.dashboard.notifications}
            className="btn btn-ghost btn-sm rounded-t-none border-t border-base-300"
            onClick={close}
          >
            See all notifications
          </Link>
        </section>
      )}
    </div>
  );
}
