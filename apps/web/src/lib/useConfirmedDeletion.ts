import type { UseMutationResult } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "react-toastify";
import { errorMessage } from "./api.ts";

/**
 * Deleting after asking: `ask(item)` opens the question; `confirm(...extra)` runs the mutation
 * with `variables(item, ...extra)`, tells how it went in a toast and closes the question either way.
 */
export function useConfirmedDeletion<Item, Extra extends unknown[], Variables, Result>(
  mutation: UseMutationResult<Result, Error, Variables>,
  how: {
    variables: (item: Item, ...extra: Extra) => Variables;
    success: (result: Result, item: Item, variables: Variables) => string;
    failure: string;
  },
) {
  const [item, setItem] = useState<Item | null>(null);
  const confirm = async (...extra: Extra) => {
    if (item === null) return;
    const variables = how.variables(item, ...extra);
    try {
      toast.success(how.success(await mutation.mutateAsync(variables), item, variables));
    } catch (error) {
      toast.error(errorMessage(error, how.failure));
    }
    setItem(null);
  };
  return { item, ask: setItem, cancel: () => setItem(null), confirm, busy: mutation.isPending };
}
