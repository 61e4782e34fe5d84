import { useMutation } from "@tanstack/react-query";
import { apiKeysEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { developerQueries } from "./queries.ts";

const useRefreshKeys = () => useInvalidate(developerQueries.apiKeys().queryKey);

export function useCreateApiKey() {
  const refresh = useRefreshKeys();
  return useMutation({
    mutationFn: (name: string) => call(apiKeysEndpoints.createApiKey, { body: { name } }),
    onSuccess: refresh,
  });
}

export function useRevokeApiKey() {
  const refresh = useRefreshKeys();
  return useMutation({
    mutationFn: (id: string) => call(apiKeysEndpoints.revokeApiKey, { params: { id } }),
    onSuccess: refresh,
  });
}
