import { CircleAlert, Inbox } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

export interface EmptyStateProps {
  title: string;
  /** Where to go from here (post a task, find one...). */
  link?: { to: string; label: string };
  children?: ReactNode;
}

export function EmptyState({ title, link, children }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-box border border-dashed border-base-300 bg-base-100 p-8 text-center">
      <Inbox className="size-8 text-base-content/40" aria-hidden="true" />
      <p className="font-semibold">{title}</p>
      {children && <div className="text-sm text-base-content/70">{children}</div>}
      {link && (
        <div className="text-sm">
          <Link to={link.to} className="link link-primary">
            {link.label}
          </Link>
        </div>
      )}
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="alert alert-error">
      <CircleAlert aria-hidden="true" />
      <span>{message}</span>
      {onRetry && (
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
