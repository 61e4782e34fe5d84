import { useMutation } from "@tanstack/react-query";
import type { ChangePasswordRequest, ResetPasswordRequest, UserAnswer } from "@taskmint/shared";
import { api } from "../../lib/api.ts";
import { useRefreshMe } from "../../lib/auth.ts";

export function useUpdateProfile() {
  const refresh = useRefreshMe();
  return useMutation({
    mutationFn: (form: FormData) => api<UserAnswer>("/api/me", { method: "PATCH", body: form }),
    onSuccess: refresh,
  });
}

export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      api("/api/auth/change-password", { body: { ...body, revokeOtherSessions: true } }),
  });

export const useRequestReset = () =>
  useMutation({
    mutationFn: (email: string) =>
      api("/api/auth/request-password-reset", {
        body: { email, redirectTo: `${window.location.origin}/reset-password` },
      }),
  });

export function useResetPassword() {
  const refresh = useRefreshMe();
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => api<UserAnswer>("/api/password/reset", { body }),
    onSuccess: refresh,
  });
}
