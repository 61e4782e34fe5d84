import type { QueryKey, UseMutationResult, UseQueryOptions } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { Page as ListPage } from "@taskmint/shared";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import type { EmptyStateProps } from "../../../components/ui/States.tsx";
import { When } from "../../../components/ui/When.tsx";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";

/** An entry of a list of people kept away: who, since when. */
interface Entry {
  created_at: string;
}

/**
 * Rule R23's lists of people one side keeps away (a buyer's blocked workers, a worker's hidden
 * buyers), as one page: the people, since when, and a way to let each back that asks first.
 */
export function KeptAwayList<T extends Entry, Key extends QueryKey>(props: {
  title: string;
  pages: (page: number) => UseQueryOptions<ListPage<T>, Error, ListPage<T>, Key>;
  errorMessage: string;
  empty: EmptyStateProps;
  /** The person's column header and name, and any columns between the name and the date. */
  who: { header: string; idOf: (entry: T) => string; nameOf: (entry: T) => string };
  extraColumns?: { header: string; cell: (entry: T) => ReactNode }[];
  sinceHeader: string;
  letBack: UseMutationResult<unknown, Error, string>;
  /** The action's label, its question and what it tells after. */
  action: string;
  question: (name: string) => string;
  consequence: string;
  done: (name: string) => string;
  failure: string;
}) {
  const { who, extraColumns = [] } = props;
  const letBack = useConfirmedDeletion(props.letBack, {
    variables: (entry: T) => who.idOf(entry),
    success: (_, entry) => props.done(who.nameOf(entry)),
    failure: props.failure,
  });
  return (
    <Page title={props.title}>
      <PagedList pages={props.pages} errorMessage={props.errorMessage} empty={props.empty}>
        {(items) => (
          <DataTable
            headers={[who.header, ...extraColumns.map((column) => column.header), props.sinceHeader, ""]}
          >
            {items.map((entry) => (
              <tr key={who.idOf(entry)}>
                <td className="font-medium">{who.nameOf(entry)}</td>
                {extraColumns.map((column) => (
                  <td key={column.header} className="max-w-xs break-words">
                    {column.cell(entry)}
                  </td>
                ))}
                <td>
                  <When iso={entry.created_at} />
                </td>
                <td>
                  <button type="button" className="btn btn-sm" onClick={() => letBack.ask(entry)}>
                    {props.action}
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      <ConfirmDialog
        deletion={letBack}
        title={(entry) => props.question(who.nameOf(entry))}
        message={() => props.consequence}
        confirmLabel={() => props.action}
      />
    </Page>
  );
}
