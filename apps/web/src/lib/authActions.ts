import { useMutation, useQueryClient } from "@tanstack/react-query";
import { authEndpoints } from "@taskmint/shared";
import type { SelfRegisterRole } from "@taskmint/shared/constants";
import type { SignInFields, SocialSignInRequest } from "@taskmint/shared/schemas";
import { paths } from "@taskmint/shared/routes";
import { call } from "./api.ts";
import { returnPath, sessionQueries, useRefreshMe } from "./auth.ts";
import { forgetPersistedQueries } from "./offline.ts";

// Signing in, up and out: apart from auth.ts (the session, which every page reads), so the pages
// that never sign anyone in do not build the auth routes' declarations as they start.

export function useSignIn() {
  const refresh = useRefreshMe();
  return useMutation({
    mutationFn: (credentials: SignInFields) => call(authEndpoints.signInWithEmail, { body: credentials }),
    // Signing in answers a session (the cookie), or, with two-factor on, a request for the second step.
    onSuccess: async (answer) => {
      if (!answer.twoFactorRedirect) await refresh();
    },
  });
}

/**
 * A code of the authenticator app, or a backup code: a sign-in's second step, or, signed in,
 * the code that confirms this session (rule R30).
 */
export function useVerifySecondFactor(kind: "totp" | "backup") {
  const refresh = useRefreshMe();
  return useMutation({
    mutationFn: (code: string) =>
      kind === "totp"
        ? call(authEndpoints.verifyTwoFactorCode, { body: { code } })
        : call(authEndpoints.verifyBackupCode, { body: { code } }),
    onSuccess: refresh,
  });
}

export function useRegister() {
  const refresh = useRefreshMe();
  return useMutation({
    mutationFn: (form: FormData) => call(authEndpoints.register, { body: form }),
    onSuccess: refresh,
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(authEndpoints.signOut, { body: {} }),
    onSuccess: async () => {
      client.setQueryData(sessionQueries.me().queryKey, null);
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueries.all[0] });
      // And the device's copy of them (lib/offline.ts): the next person on this phone sees none.
      await forgetPersistedQueries();
    },
  });
}

/**
 * Starts Google sign-in. It comes back to `returnTo` signed in, or to /login with
 * `?error=` (and the same `returnTo` kept for another try); `role` is the one chosen on
 * /register, if any (rule R1).
 */
export async function startGoogleSignIn({ role, returnTo }: { role?: SelfRegisterRole; returnTo: string }) {
  const callbackURL = returnPath(returnTo);
  const request: SocialSignInRequest = {
    provider: "google",
    callbackURL,
    errorCallbackURL: `${paths.login}?from=${encodeURIComponent(callbackURL)}`,
    ...(role ? { additionalData: { role } } : {}),
  };
  const answer = await call(authEndpoints.signInWithGoogle, { body: request });
  if (answer.url) window.location.assign(answer.url);
}
