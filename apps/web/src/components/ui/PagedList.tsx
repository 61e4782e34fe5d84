import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { Page } from "@taskmint/shared";
import { Pagination } from "./Pagination.tsx";
import { Spinner } from "./Spinner.tsx";
import { EmptyState, ErrorState } from "./States.tsx";

/** A page-numbered list: loading, error with retry, empty, or the items with pagination. */
export function PagedList<T>({
  query,
  errorMessage,
  empty,
  onPage,
  children,
}: {
  query: UseQueryResult<Page<T>>;
  errorMessage: string;
  empty: ReactNode;
  onPage: (page: number) => void;
  children: (items: T[]) => ReactNode;
}) {
  if (query.isPending) return <Spinner />;
  if (query.isError) return <ErrorState message={errorMessage} onRetry={() => void query.refetch()} />;
  if (query.data.items.length === 0) return typeof empty === "string" ? <EmptyState title={empty} /> : empty;
  return (
    <>
      {children(query.data.items)}
      <Pagination page={query.data.page} limit={query.data.limit} total={query.data.total} onPage={onPage} />
    </>
  );
}
