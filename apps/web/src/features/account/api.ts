import { useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  ActiveSession,
  BackupCodes,
  ChangePasswordRequest,
  NotificationSettings,
  NotificationSettingsUpdate,
  ResetPasswordRequest,
  TwoFactorEnrolment,
  TwoFactorPasswordRequest,
  Unsubscribed,
  UserAnswer,
} from "@taskmint/shared";
import { api } from "../../lib/api.ts";
import { useRefreshMe } from "../../lib/auth.ts";
import { accountQueries } from "./queries.ts";

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

const sessionsKey = accountQueries.sessions().queryKey;

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (session: ActiveSession) => api(`/api/me/sessions/${session.id}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/**
 * Turning two-factor sign-in on, off, or making new backup codes. Turning it on or off
 * replaces the session (the auth library does), so the user and the sessions are read again.
 */
export function useTwoFactor() {
  const refresh = useRefreshMe();
  const client = useQueryClient();
  const reread = async () => {
    await refresh();
    await client.invalidateQueries({ queryKey: sessionsKey });
  };
  return {
    enable: useMutation({
      mutationFn: (body: TwoFactorPasswordRequest) =>
        api<TwoFactorEnrolment>("/api/auth/two-factor/enable", { body }),
    }),
    confirm: useMutation({
      mutationFn: (code: string) => api("/api/auth/two-factor/verify-totp", { body: { code } }),
      onSuccess: reread,
    }),
    disable: useMutation({
      mutationFn: (body: TwoFactorPasswordRequest) => api("/api/auth/two-factor/disable", { body }),
      onSuccess: reread,
    }),
    newBackupCodes: useMutation({
      mutationFn: (body: TwoFactorPasswordRequest) =>
        api<BackupCodes>("/api/auth/two-factor/generate-backup-codes", { body }),
    }),
  };
}

/** Mails a new verification link to the signed-in user (rule R28). */
export const useResendVerification = () =>
  useMutation({
    mutationFn: () => api<{ message: string }>("/api/me/verify-email/resend", { method: "POST" }),
  });

export function useUpdateNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettingsUpdate) =>
      api<NotificationSettings>("/api/me/notification-settings", { method: "PUT", body }),
    onSuccess: (settings) => client.setQueryData(accountQueries.notificationSettings().queryKey, settings),
  });
}

/** The unsubscribe page's button: the mail's signed token, no sign-in needed. */
export const useUnsubscribe = () =>
  useMutation({
    mutationFn: (token: string) => api<Unsubscribed>("/api/unsubscribe", { body: { token } }),
  });
