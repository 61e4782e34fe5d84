import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  pushEndpoints,
  savedSearchesEndpoints,
  type CreateSavedSearch,
  type QuietHours,
  type SavedSearch,
  type UpdateSavedSearch,
} from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { alertsQueries } from "./queries.ts";

const savedSearchesKey = alertsQueries.savedSearches().queryKey;

/** Saved searches change one list: each mutation reads it again (it holds at most 20). */
function useSavedSearchMutation<Variables, Result>(mutationFn: (variables: Variables) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: savedSearchesKey }),
  });
}

export const useCreateSavedSearch = () =>
  useSavedSearchMutation((body: CreateSavedSearch) =>
    call(savedSearchesEndpoints.createSavedSearch, { body }),
  );

export const useUpdateSavedSearch = () =>
  useSavedSearchMutation(({ id, ...body }: UpdateSavedSearch & { id: string }) =>
    call(savedSearchesEndpoints.updateSavedSearch, { params: { id }, body }),
  );

/** Opening a search's results: its new matches count from now. */
export const useMarkSavedSearchSeen = () =>
  useSavedSearchMutation((id: string) =>
    call(savedSearchesEndpoints.markSavedSearchSeen, { params: { id } }),
  );

export const useDeleteSavedSearch = () =>
  useSavedSearchMutation((search: SavedSearch) =>
    call(savedSearchesEndpoints.deleteSavedSearch, { params: { id: search.id } }),
  );

export function useUpdateQuietHours() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QuietHours) => call(pushEndpoints.updateQuietHours, { body }),
    onSuccess: (saved) => client.setQueryData(alertsQueries.quietHours().queryKey, saved),
  });
}
