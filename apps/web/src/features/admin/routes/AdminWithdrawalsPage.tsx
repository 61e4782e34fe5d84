import { useState } from "react";
import { WITHDRAWAL_SEARCH_MAX, type WithdrawalStatus } from "@taskmint/shared";
import { SearchForm } from "../../../components/form/SearchForm.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { WITHDRAWAL_FILTERS, WithdrawalRequests } from "../components/WithdrawalRequests.tsx";

/** Every withdrawal: by status, searched by the worker's name or email (issue 19). */
export function AdminWithdrawalsPage() {
  const [status, setStatus] = useState<WithdrawalStatus | "">("pending");
  const [query, setQuery] = useState("");
  return (
    <Page title="Withdrawals">
      <SearchForm
        id="withdrawal-search"
        label="Search by worker name or email"
        maxLength={WITHDRAWAL_SEARCH_MAX}
        onSearch={setQuery}
      >
        <select
          className="select select-sm w-auto"
          aria-label="Filter by status"
          value={status}
          onChange={(event) => setStatus(event.target.value as WithdrawalStatus | "")}
        >
          {WITHDRAWAL_FILTERS.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {filter.label}
            </option>
          ))}
        </select>
      </SearchForm>
      <WithdrawalRequests status={status} q={query} />
    </Page>
  );
}
