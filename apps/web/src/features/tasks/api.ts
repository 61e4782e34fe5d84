import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  BuyerStats,
  EditableTaskFields,
  LargePage,
  Page,
  Submission,
  SubmissionStatus,
  Task,
  WorkerStats,
} from "@taskmint/shared";
import { api } from "../../lib/api.ts";
import { meKey } from "../../lib/auth.ts";

const PAGE_SIZE = 10;
const pageQuery = (page: number, extra = "") => `?page=${page}&limit=${PAGE_SIZE}${extra}`;

export const useTask = (id: string) =>
  useQuery({ queryKey: ["task", id], queryFn: () => api<Task>(`/api/tasks/${id}`) });

export const useBuyerTasks = (page: number) =>
  useQuery({
    queryKey: ["buyer-tasks", page],
    queryFn: () => api<Page<Task>>(`/api/buyer/tasks${pageQuery(page)}`),
    placeholderData: keepPreviousData,
  });

export const useBuyerStats = () =>
  useQuery({ queryKey: ["buyer-stats"], queryFn: () => api<BuyerStats>("/api/buyer/stats") });

export const useReviewQueue = (page: number) =>
  useQuery({
    queryKey: ["review-queue", page],
    queryFn: () => api<Page<Submission>>(`/api/buyer/submissions${pageQuery(page, "&status=pending")}`),
    placeholderData: keepPreviousData,
  });

/** `cursorQuery` comes from useCursorPages(). */
export const useWorkerTasks = (cursorQuery: string) =>
  useQuery({
    queryKey: ["worker-tasks", cursorQuery],
    queryFn: () => api<LargePage<Task>>(`/api/worker/tasks?${cursorQuery}&limit=${PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });

export const useWorkerSubmissions = (page: number, status?: SubmissionStatus) =>
  useQuery({
    queryKey: ["worker-submissions", page, status],
    queryFn: () =>
      api<Page<Submission>>(`/api/worker/submissions${pageQuery(page, status ? `&status=${status}` : "")}`),
    placeholderData: keepPreviousData,
  });

export const useWorkerStats = () =>
  useQuery({ queryKey: ["worker-stats"], queryFn: () => api<WorkerStats>("/api/worker/stats") });

/** After anything that moves coins or changes tasks: refresh balances and the lists that show them. */
function useRefreshAfterChange() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [
        meKey,
        ["buyer-tasks"],
        ["buyer-stats"],
        ["review-queue"],
        ["worker-tasks"],
        ["worker-submissions"],
        ["worker-stats"],
        ["task"],
      ].map((queryKey) => client.invalidateQueries({ queryKey })),
    );
}

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
    mutationFn: (id: string) => api<{ refunded_coins: number }>(`/api/tasks/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}

export function useSubmitWork(taskId: string) {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (submission_details: string) =>
      api<Submission>(`/api/tasks/${taskId}/submissions`, { body: { submission_details } }),
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
