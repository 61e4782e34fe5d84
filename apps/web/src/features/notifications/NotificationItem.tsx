import { Link } from "react-router";
import type { AppNotification } from "@taskmint/shared";
import { When } from "../../components/ui/When.tsx";

/** One notification as a link to what it is about; unread ones bold, with a dot and a word for screen readers. */
export function NotificationItem({
  item,
  onFollow,
}: {
  item: AppNotification;
  /** Runs as the link is followed (marks it read, closes the panel). */
  onFollow: () => void;
}) {
  return (
    <Link
      to={item.action_route}
      className="flex min-h-11 gap-3 p-3 hover:bg-base-200 focus-visible:bg-base-200"
      onClick={onFollow}
    >
      <span
        className={`mt-1.5 size-2 shrink-0 rounded-full ${item.read ? "" : "bg-primary"}`}
        aria-hidden="true"
      />
      <span className="min-w-0 flex-1">
        <span className={`block text-sm break-words ${item.read ? "" : "font-semibold"}`}>
          {!item.read && <span className="sr-only">Unread: </span>}
          {item.message}
        </span>
        <span className="mt-1 block text-xs text-base-content/70">
          <When iso={item.created_at} />
        </span>
      </span>
    </Link>
  );
}
