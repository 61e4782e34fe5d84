import { FilterSelect } from "../../../components/form/FilterSelect.tsx";
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
        <FilterSelect
          label="Filter by status"
          value={status}
          options={WITHDRAWAL_FILTERS}
          onChange={setStatus}
        />
      </SearchForm>
      <WithdrawalRequests status={status} q={query} />
    </Page>
  );
}
