/** Previous / next over a page-numbered list. */
export function Pagination({ page, limit, total, onPage }: { page: number; limit: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages <= 1) return null;
  return (
    <nav className="join mt-4 flex justify-center" aria-label="Pages">
      <button type="button" className="btn join-item" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="btn join-item pointer-events-none" aria-current="page">
        Page {page} of {pages}
      </span>
      <button type="button" className="btn join-item" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
