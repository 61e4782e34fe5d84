import { useMutation } from "@tanstack/react-query";
import {
  apiKeysEndpoints,
  batchesEndpoints,
  IDEMPOTENCY_KEY_HEADER,
  webhooksEndpoints,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
} from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { sessionQueries } from "../../lib/auth.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { workQueriesRoot } from "../../lib/queryKeys.ts";
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

const batchForm = (file: File) => {
  const form = new FormData();
  form.append("file", file);
  return form;
};

/** Checks and prices a CSV batch without posting anything (`?dry_run=true`). */
export const usePreviewBatch = () =>
  useMutation({
    mutationFn: async (file: File) => {
      const answer = await call(batchesEndpoints.createBatch, {
        query: { dry_run: "true" },
        body: batchForm(file),
      });
      if (!("rows" in answer)) throw new Error("The server posted the batch instead of checking it");
      return answer;
    },
  });

/**
 * Posts a checked batch. `idempotencyKey` is made once per preview, so a double click or a retry
 * after a lost answer posts the tasks once.
 */
export function usePostBatch() {
  const refresh = useInvalidate(developerQueries.batchesRoot, sessionQueries.me().queryKey, workQueriesRoot);
  return useMutation({
    mutationFn: async ({ file, idempotencyKey }: { file: File; idempotencyKey: string }) => {
      const answer = await call(batchesEndpoints.createBatch, {
        query: { dry_run: "false" },
        body: batchForm(file),
        headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
      });
      if ("rows" in answer) throw new Error("The server checked the batch instead of posting it");
      return answer;
    },
    onSuccess: refresh,
  });
}
