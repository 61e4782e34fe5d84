import { useMutation } from "@tanstack/react-query";
import {
  reservationsEndpoints,
  submissionsEndpoints,
  tasksEndpoints,
  type EditableTaskFields,
} from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { sessionQueries } from "../../lib/auth.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { taskQueries } from "./queries.ts";

/** After anything that moves coins or changes tasks: refresh balances and the lists that show them. */
const useRefreshAfterChange = () => useInvalidate(sessionQueries.me().queryKey, taskQueries.all);

export function useCreateTask() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (form: FormData) => call(tasksEndpoints.createTask, { body: form }),
    onSuccess: refresh,
  });
}

export function useUpdateTask() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ id, fields }: { id: string; fields: EditableTaskFields }) =>
      call(tasksEndpoints.updateTask, { params: { id }, body: fields }),
    onSuccess: refresh,
  });
}

export function useDeleteTask() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (id: string) => call(tasksEndpoints.deleteTask, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useSubmitWork(taskId: string) {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ details, screenshots }: { details: string; screenshots: File[] }) => {
      const params = { id: taskId };
      if (screenshots.length === 0)
        return call(submissionsEndpoints.submitWork, { params, body: { submission_details: details } });
      const form = new FormData();
      form.append("submission_details", details);
      for (const file of screenshots) form.append("attachments", file);
      return call(submissionsEndpoints.submitWork, { params, body: form });
    },
    onSuccess: refresh,
  });
}

export function useReview() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (
      review: { id: string } & ({ decision: "approve" } | { decision: "reject"; reason: string }),
    ) =>
      review.decision === "reject"
        ? call(submissionsEndpoints.rejectSubmission, {
            params: { id: review.id },
            body: { reason: review.reason },
          })
        : call(submissionsEndpoints.approveSubmission, { params: { id: review.id } }),
    onSuccess: refresh,
  });
}

/** Rule R20: "Start task" holds a slot for the task's time limit. */
export function useReserve() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (taskId: string) => call(reservationsEndpoints.reserveSlot, { params: { id: taskId } }),
    onSuccess: refresh,
  });
}

export function useCancelReservation() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (reservationId: string) =>
      call(reservationsEndpoints.cancelReservation, { params: { id: reservationId } }),
    onSuccess: refresh,
  });
}
