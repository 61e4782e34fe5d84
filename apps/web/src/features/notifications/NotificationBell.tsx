import { useQuery } from "@tanstack/react-query";
import { Bell } from "lucide-react";
import { Link } from "react-router";
import { useDropdown } from "../../lib/useDropdown.ts";
import { useMarkAllRead, useNotificationStream } from "./api.ts";
import { notificationQueries } from "./queries.ts";
import { When } from "../../components/ui/When.tsx";

/** The bell: unread count, the latest notifications with links, live updates; opening it marks them read. */
export function NotificationBell() {
  const notifications = useQuery(notificationQueries.latest());
  const markAllRead = useMarkAllRead();
  useNotificationStream(true);
  const unread = notifications.data?.unread ?? 0;
  const { open, close, box, triggerProps } = useDropdown({
    onOpen: () => {
      if (unread > 0) markAllRead.mutate();
    },
  });

  return (
    <div className="relative" ref={box}>
      <button
        {...triggerProps}
        className="btn btn-ghost btn-circle"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : "Notifications"}
        aria-haspopup="true"
      >
        <span className="indicator">
          <Bell aria-hidden="true" />
          {unread > 0 && (
            <span className="badge indicator-item badge-error badge-xs" data-testid="unread-count">
              {unread}
            </span>
          )}
        </span>
      </button>
      {open && (
        <div className="absolute right-0 z-50 mt-2 w-80 max-w-[calc(100vw-2rem)] rounded-box bg-base-100 shadow-lg ring-1 ring-base-300">
          <p className="border-b border-base-300 p-3 font-semibold">Notifications</p>
          {notifications.data && notifications.data.items.length > 0 ? (
            <ul className="max-h-96 overflow-y-auto">
              {notifications.data.items.map((item) => (
                <li key={item.id} className="border-b border-base-200 last:border-0">
                  <Link to={item.action_route} className="block p-3 hover:bg-base-200" onClick={close}>
                    <p className={`text-sm ${item.read ? "" : "font-semibold"}`}>{item.message}</p>
                    <p className="mt-1 text-xs text-base-content/70">
                      <When iso={item.created_at} />
                    </p>
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="p-4 text-sm">No notifications yet</p>
          )}
        </div>
      )}
    </div>
  );
}
