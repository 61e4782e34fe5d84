import { useMutation } from "@tanstack/react-query";
import { appealsEndpoints, bonusesEndpoints, IDEMPOTENCY_KEY_HEADER, trustEndpoints } from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { sessionQueries } from "../../lib/auth.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { workQueriesRoot } from "../../lib/queryKeys.ts";

/** Appeals, bonuses and blocks change coins and the lists that show submissions and tasks. */
const useRefresh = () => useInvalidate(sessionQueries.me().queryKey, workQueriesRoot);

export function useAppeal() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) =>
      call(appealsEndpoints.appealRejection, { params: { id }, body: { message } }),
    onSuccess: refresh,
  });
}

export function useEscalate() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => call(appealsEndpoints.escalateAppeal, { params: { id } }),
    onSuccess: refresh,
  });
}

/** The buyer's answer to an appeal: overturn (pay) or uphold with an answer. */
export function useAnswerAppeal() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (step: { id: string } & ({ overturn: true } | { overturn: false; answer: string })) =>
      step.overturn
        ? call(appealsEndpoints.overturnRejection, { params: { id: step.id } })
        : call(appealsEndpoints.upholdRejection, { params: { id: step.id }, body: { answer: step.answer } }),
    onSuccess: refresh,
  });
}

export function useDecideAppeal() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, decision, answer }: { id: string; decision: "overturn" | "uphold"; answer: string }) =>
      call(appealsEndpoints.decideAppeal, { params: { submission_id: id }, body: { decision, answer } }),
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
      call(bonusesEndpoints.sendBonus, {
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
      call(trustEndpoints.blockWorker, { body: { worker_id: workerId, ...(note ? { note } : {}) } }),
    onSuccess: refresh,
  });
}

export function useUnblockWorker() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (workerId: string) => call(trustEndpoints.unblockWorker, { params: { worker_id: workerId } }),
    onSuccess: refresh,
  });
}

export function useHideBuyer() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (buyerId: string) => call(trustEndpoints.hideBuyer, { body: { buyer_id: buyerId } }),
    onSuccess: refresh,
  });
}

export function useUnhideBuyer() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (buyerId: string) => call(trustEndpoints.unhideBuyer, { params: { buyer_id: buyerId } }),
    onSuccess: refresh,
  });
}
