import { formatDate, formatDateTime } from "../../lib/format.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long ago, the way people say it, for the last week; null when older or in the future. */
export function timeAgo(iso: string, now = Date.now()): string | null {
  const elapsed = now - new Date(iso).getTime();
  if (elapsed < 0 || elapsed >= 7 * DAY) return null;
  if (elapsed < MINUTE) return "just now";
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} h ago`;
  const days = Math.floor(elapsed / DAY);
  return days === 1 ? "yesterday" : `${days} days ago`;
}

/** A moment: relative while recent ("2 h ago"), else the date; the exact time on hover. */
export function When({ iso }: { iso: string }) {
  const exact = formatDateTime(iso);
  return (
    <time dateTime={iso} title={exact} className="whitespace-nowrap">
      {timeAgo(iso) ?? formatDate(iso)}
    </time>
  );
}
