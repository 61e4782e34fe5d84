import { useMemo, type ReactNode } from "react";
import { z } from "zod";
import { queryTextSchema } from "@taskmint/shared";
import { Form, SubmitButton, useZodForm } from "./Form.tsx";

/**
 * A list's search box: `maxLength` is the list query's limit on `q` (the server's), and `onSearch`
 * gets the trimmed words, "" for all. Children are the filters that stand beside it.
 */
export function SearchForm({
  id,
  label,
  maxLength,
  onSearch,
  children,
}: {
  id: string;
  label: string;
  maxLength: number;
  onSearch: (words: string) => void;
  children?: ReactNode;
}) {
  const schema = useMemo(() => z.object({ q: queryTextSchema("Search", maxLength) }), [maxLength]);
  const search = useZodForm(schema, { q: "" });
  return (
    <Form
      form={search}
      onSubmit={({ q }) => onSearch(q ?? "")}
      className="mb-4 flex flex-wrap gap-2"
      role="search"
    >
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="input input-sm w-64 max-w-full"
        placeholder={label}
        maxLength={maxLength}
        {...search.register("q")}
      />
      {children}
      <SubmitButton className="btn btn-sm btn-primary">Search</SubmitButton>
    </Form>
  );
}
