/** Previous / next over a paged list; `hasNext` and `capped` come from keyset-paged lists. */
export function Pagination({
  page,
  limit,
  total,
  onPage,
  hasNext,
  capped = false,
}: {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  hasNext?: boolean;
  capped?: boolean;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const more = hasNext ?? page < pages;
  if (page <= 1 && !more) return null;
  // A capped total only says the list goes on past it.
  const label = !capped
    ? `Page ${page} of ${pages}`
    : page <= pages
      ? `Page ${page} of ${pages}+`
      : `Page ${page}`;
  return (
    <nav className="join mt-4 flex justify-center" aria-label="Pages">
      <button type="button" className="btn join-item" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="btn join-item pointer-events-none" aria-current="page">
        {label}
      </span>
      <button type="button" className="btn join-item" disabled={!more} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
