import { useMutation } from "@tanstack/react-query";
import {
  IDEMPOTENCY_KEY_HEADER,
  trustEndpoints as endpoints,
  type Bonus,
  type Submission,
} from "@taskmint/shared";
import { api, call } from "../../lib/api.ts";
import { sessionQueries } from "../../lib/auth.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { workQueriesRoot } from "../../lib/queryKeys.ts";

/** Appeals, bonuses and blocks change coins and the lists that show submissions and tasks. */
const useRefresh = () => useInvalidate(sessionQueries.me().queryKey, workQueriesRoot);

const appealUrl = (id: string, step = "") => `/api/submissions/${id}/appeal${step ? `/${step}` : ""}`;

export function useAppeal() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) =>
      api<Submission>(appealUrl(id), { body: { message } }),
    onSuccess: refresh,
  });
}

export function useEscalate() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => api<Submission>(appealUrl(id, "escalate"), { body: {} }),
    onSuccess: refresh,
  });
}

/** The buyer's answer to an appeal: overturn (pay) or uphold with an answer. */
export function useAnswerAppeal() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, overturn, answer }: { id: string; overturn: boolean; answer?: string }) =>
      overturn
        ? api<Submission>(appealUrl(id, "overturn"), { body: {} })
        : api<Submission>(appealUrl(id, "uphold"), { body: { answer } }),
    onSuccess: refresh,
  });
}

export function useDecideAppeal() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, decision, answer }: { id: string; decision: "overturn" | "uphold"; answer: string }) =>
      api<Submission>(`/api/admin/appeals/${id}/decide`, { body: { decision, answer } }),
    onSuccess: refresh,
  });
}

/**
 * A bonus; the caller makes `idempotencyKey` once per intended bonus (when its dialog opens), so
 * a double click or a retry pays once.
 */
export function useSendBonus() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (bonus: { submissionId: string; coins: number; message: string; idempotencyKey: string }) =>
      api<Bonus>("/api/bonuses", {
        body: { submission_id: bonus.submissionId, coins: bonus.coins, message: bonus.message },
        headers: { [IDEMPOTENCY_KEY_HEADER]: bonus.idempotencyKey },
      }),
    onSuccess: refresh,
  });
}

export function useBlockWorker() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ workerId, note }: { workerId: string; note?: string }) =>
      call(endpoints.blockWorker, { body: { worker_id: workerId, ...(note ? { note } : {}) } }),
    onSuccess: refresh,
  });
}

export function useUnblockWorker() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (workerId: string) => call(endpoints.unblockWorker, { params: { worker_id: workerId } }),
    onSuccess: refresh,
  });
}

export function useHideBuyer() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (buyerId: string) => call(endpoints.hideBuyer, { body: { buyer_id: buyerId } }),
    onSuccess: refresh,
  });
}

export function useUnhideBuyer() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (buyerId: string) => call(endpoints.unhideBuyer, { params: { buyer_id: buyerId } }),
    onSuccess: refresh,
  });
}
