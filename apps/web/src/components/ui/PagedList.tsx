import { useQuery, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import type { LargePage, Page } from "@taskmint/shared";
import { useCursorPages, type KeysetPage } from "../../lib/cursorPages.ts";
import { Pagination } from "./Pagination.tsx";
import { ListSkeleton } from "./PageSkeleton.tsx";
import { EmptyState, ErrorState, type EmptyStateProps } from "./States.tsx";

type Options<Answer, Key extends QueryKey> = UseQueryOptions<Answer, Error, Answer, Key>;

/**
 * Where a paged list's pages come from: a query of each page number, or of each keyset page
 * (the page and cursor of useCursorPages). The list keeps the page shown; give it a new `key`
 * to start again at page 1 (a new search, say).
 */
export type PageSource<T, Key extends QueryKey> =
  | { pages: (page: number) => Options<Page<T>, Key> }
  | { keysetPages: (page: KeysetPage) => Options<LargePage<T>, Key> };

/** A paged list: loading, error with retry, empty, or the items with pagination. */
export function PagedList<T, Key extends QueryKey>({
  errorMessage,
  empty,
  children,
  ...source
}: PageSource<T, Key> & {
  errorMessage: string;
  /** What an empty list shows. */
  empty: string | EmptyStateProps;
  children: (items: T[]) => ReactNode;
}) {
  const [page, setPage] = useState(1);
  const cursors = useCursorPages();
  const options = "pages" in source ? source.pages(page) : source.keysetPages(cursors.keysetPage);
  const query = useQuery(options as Options<Page<T> | LargePage<T>, Key>);
  if (query.isPending) return <ListSkeleton />;
  if (query.isError) return <ErrorState message={errorMessage} onRetry={() => void query.refetch()} />;
  const { data } = query;
  if (data.items.length === 0)
    return <EmptyState {...(typeof empty === "string" ? { title: empty } : empty)} />;
  const keyset = "next_cursor" in data;
  return (
    <>
      {children(data.items)}
      <Pagination
        page={data.page}
        limit={data.limit}
        total={data.total}
        onPage={keyset ? (target) => cursors.go(target, data) : setPage}
        {...(keyset ? { hasNext: data.next_cursor !== null, capped: data.total_capped } : {})}
      />
    </>
  );
}
