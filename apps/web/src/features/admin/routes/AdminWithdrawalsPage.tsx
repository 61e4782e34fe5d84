import { useState } from "react";
import { withdrawalListQuerySchema, type WithdrawalStatus } from "@taskmint/shared";
import { Form, useZodForm } from "../../../components/form/Form.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { WITHDRAWAL_FILTERS, WithdrawalRequests } from "../components/WithdrawalRequests.tsx";

const searchSchema = withdrawalListQuerySchema.pick({ q: true });

/** Every withdrawal: by status, searched by the worker's name or email (issue 19). */
export function AdminWithdrawalsPage() {
  const [status, setStatus] = useState<WithdrawalStatus | "">("pending");
  const [query, setQuery] = useState("");
  const search = useZodForm(searchSchema, { q: "" });
  return (
    <Page title="Withdrawals">
      <Form
        form={search}
        onSubmit={({ q }) => setQuery(q ?? "")}
        className="mb-4 flex flex-wrap gap-2"
        role="search"
      >
        <label htmlFor="withdrawal-search" className="sr-only">
          Search by worker name or email
        </label>
        <input
          id="withdrawal-search"
          type="search"
          className="input input-sm w-64 max-w-full"
          placeholder="Search by worker name or email"
          maxLength={100}
          {...search.register("q")}
        />
        <button type="submit" className="btn btn-sm">
          Search
        </button>
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
      </Form>
      <WithdrawalRequests status={status} q={query} />
    </Page>
  );
}
