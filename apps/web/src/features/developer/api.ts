import { useMutation } from "@tanstack/react-query";
import {
  apiKeysEndpoints,
  webhooksEndpoints,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
} from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { developerQueries } from "./queries.ts";

const useRefreshKeys = () => useInvalidate(developerQueries.apiKeys().queryKey);
const useRefreshWebhooks = () => useInvalidate(developerQueries.webhooksRoot);

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

export function useCreateWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (body: CreateWebhookRequest) => call(webhooksEndpoints.createWebhook, { body }),
    onSuccess: refresh,
  });
}

export function useUpdateWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateWebhookRequest & { id: string }) =>
      call(webhooksEndpoints.updateWebhook, { params: { id }, body }),
    onSuccess: refresh,
  });
}

export function useDeleteWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (id: string) => call(webhooksEndpoints.deleteWebhook, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useTestWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (id: string) => call(webhooksEndpoints.testWebhook, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useResendDelivery() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (id: string) => call(webhooksEndpoints.resendWebhookDelivery, { params: { id } }),
    onSuccess: refresh,
  });
}
