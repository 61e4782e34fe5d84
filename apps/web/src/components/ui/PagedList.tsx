import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { LargePage, Page } from "@taskmint/shared";
import { Pagination } from "./Pagination.tsx";
import { Spinner } from "./Spinner.tsx";
import { EmptyState, ErrorState, type EmptyStateProps } from "./States.tsx";

/** A paged list: loading, error with retry, empty, or the items with pagination (page numbers or keyset). */
export function PagedList<T>({
  query,
  errorMessage,
  empty,
  onPage,
  children,
}: {
  query: UseQueryResult<Page<T> | LargePage<T>>;
  errorMessage: string;
  /** What an empty list shows. */
  empty: string | EmptyStateProps;
  onPage: (page: number) => void;
  children: (items: T[]) => ReactNode;
}) {
  if (query.isPending) return <Spinner />;
  if (query.isError) return <ErrorState message={errorMessage} onRetry={() => void query.refetch()} />;
  const { data } = query;
  if (data.items.length === 0)
    return <EmptyState {...(typeof empty === "string" ? { title: empty } : empty)} />;
  const keyset =
    "next_cursor" in data ? { hasNext: data.next_cursor !== null, capped: data.total_capped } : {};
  return (
    <>
      {children(data.items)}
      <Pagination page={data.page} limit={data.limit} total={data.total} onPage={onPage} {...keyset} />
    </>
  );
}
