import { ButtonSpinner } from "./Spinner.tsx";

/** The next page of an infinite query, by the button under its list; nothing once it has no more. */
export function MoreButton({
  pages,
  label,
  className = "mt-6",
  small = false,
}: {
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  label: string;
  className?: string;
  small?: boolean;
}) {
  if (!pages.hasNextPage) return null;
  return (
    <div className={`${className} text-center`}>
      <button
        type="button"
        className={small ? "btn btn-sm" : "btn"}
        onClick={() => void pages.fetchNextPage()}
        disabled={pages.isFetchingNextPage}
      >
        {pages.isFetchingNextPage && <ButtonSpinner />}
        {label}
      </button>
    </div>
  );
}
