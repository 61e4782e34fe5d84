import { useMutation } from "@tanstack/react-query";
import type { EditableTaskFields, RefundedCoins, Reservation, Submission, Task } from "@taskmint/shared";
import { api } from "../../lib/api.ts";
import { sessionQueries } from "../../lib/auth.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { taskQueries } from "./queries.ts";

/** After anything that moves coins or changes tasks: refresh balances and the lists that show them. */
const useRefreshAfterChange = () => useInvalidate(sessionQueries.me().queryKey, taskQueries.all);

export function useCreateTask() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (form: FormData) => api<Task>("/api/tasks", { body: form }),
    onSuccess: refresh,
  });
}

export function useUpdateTask() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ id, fields }: { id: string; fields: EditableTaskFields }) =>
      api<Task>(`/api/tasks/${id}`, { method: "PATCH", body: fields }),
    onSuccess: refresh,
  });
}

export function useDeleteTask() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (id: string) => api<RefundedCoins>(`/api/tasks/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}

export function useSubmitWork(taskId: string) {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ details, screenshots }: { details: string; screenshots: File[] }) => {
      if (screenshots.length === 0)
        return api<Submission>(`/api/tasks/${taskId}/submissions`, { body: { submission_details: details } });
      const form = new FormData();
      form.append("submission_details", details);
      for (const file of screenshots) form.append("attachments", file);
      return api<Submission>(`/api/tasks/${taskId}/submissions`, { body: form });
    },
    onSuccess: refresh,
  });
}

export function useReview() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: string; decision: "approve" | "reject"; reason?: string }) =>
      api<Submission>(`/api/submissions/${id}/${decision}`, {
        body: decision === "reject" ? { reason } : {},
      }),
    onSuccess: refresh,
  });
}

/** Rule R20: "Start task" holds a slot for the task's time limit. */
export function useReserve() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (taskId: string) => api<Reservation>(`/api/tasks/${taskId}/reservations`, { body: {} }),
    onSuccess: refresh,
  });
}

export function useCancelReservation() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (reservationId: string) =>
      api<Reservation>(`/api/reservations/${reservationId}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}
