import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  authEndpoints,
  notificationsEndpoints,
  sessionsEndpoints,
  usersEndpoints,
  type ActiveSession,
  type ChangePasswordRequest,
  type NotificationSettingsUpdate,
  type ResetPasswordRequest,
  type TwoFactorPasswordRequest,
} from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { useRefreshMe } from "../../lib/auth.ts";
import { accountQueries } from "./queries.ts";

export function useUpdateProfile() {
  const refresh = useRefreshMe();
  return useMutation({
    mutationFn: (form: FormData) => call(usersEndpoints.updateMe, { body: form }),
    onSuccess: refresh,
  });
}

export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      call(authEndpoints.changePassword, { body: { ...body, revokeOtherSessions: true } }),
  });

export const useRequestReset = () =>
  useMutation({
    mutationFn: (email: string) =>
      call(authEndpoints.requestPasswordReset, {
        body: { email, redirectTo: `${window.location.origin}/reset-password` },
      }),
  });

export function useResetPassword() {
  const refresh = useRefreshMe();
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => call(authEndpoints.resetPassword, { body }),
    onSuccess: refresh,
  });
}

const sessionsKey = accountQueries.sessions().queryKey;

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (session: ActiveSession) =>
      call(sessionsEndpoints.endMySession, { params: { id: session.id } }),
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
      mutationFn: (body: TwoFactorPasswordRequest) => call(authEndpoints.enableTwoFactor, { body }),
    }),
    confirm: useMutation({
      mutationFn: (code: string) => call(authEndpoints.verifyTwoFactorCode, { body: { code } }),
      onSuccess: reread,
    }),
    disable: useMutation({
      mutationFn: (body: TwoFactorPasswordRequest) => call(authEndpoints.disableTwoFactor, { body }),
      onSuccess: reread,
    }),
    newBackupCodes: useMutation({
      mutationFn: (body: TwoFactorPasswordRequest) => call(authEndpoints.generateBackupCodes, { body }),
    }),
  };
}

/** Mails a new verification link to the signed-in user (rule R28). */
export const useResendVerification = () =>
  useMutation({
    mutationFn: () => call(authEndpoints.resendEmailVerification),
  });

export function useUpdateNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettingsUpdate) =>
      call(notificationsEndpoints.updateNotificationSettings, { body }),
    onSuccess: (settings) => client.setQueryData(accountQueries.notificationSettings().queryKey, settings),
  });
}

/** The unsubscribe page's button: the mail's signed token, no sign-in needed. */
export const useUnsubscribe = () =>
  useMutation({
    mutationFn: (token: string) => call(notificationsEndpoints.unsubscribeFromMail, { body: { token } }),
  });
