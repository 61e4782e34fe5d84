import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { authEndpoints, healthEndpoints, usersEndpoints } from "@taskmint/shared";
import { ROLE_HOME, type Role, type SelfRegisterRole } from "@taskmint/shared/constants";
import {
  returnPathSchema,
  type MeAnswer,
  type SignInFields,
  type SocialSignInRequest,
} from "@taskmint/shared/schemas";
import { paths } from "@taskmint/shared/routes";
import type { Location } from "react-router";
import { ApiError, call } from "./api.ts";
import { useInvalidate } from "./invalidate.ts";

const all = ["session"] as const;

/** The signed-in user and the server's set-up: kept when signing out, unlike every other query. */
export const sessionQueries = {
  all,
  /** The signed-in user and this session's second factor, or null for a visitor. */
  me: () =>
    queryOptions({
      queryKey: [...all, "me"],
      queryFn: async (): Promise<MeAnswer | null> => {
        try {
          return await call(usersEndpoints.getMe);
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) return null;
          throw error;
        }
      },
      staleTime: 30_000,
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    }),
  config: () =>
    queryOptions({
      queryKey: [...all, "config"],
      queryFn: () => call(healthEndpoints.getConfig),
      staleTime: Infinity,
    }),
};

/** The signed-in user, or null for a visitor. */
export const useMe = () => useQuery({ ...sessionQueries.me(), select: (answer) => answer?.user ?? null });
/** Whether this session passed a second factor itself (rule R30: admin actions need it). */
export const useSessionVerified = () =>
  useQuery({ ...sessionQueries.me(), select: (answer) => answer?.session.two_factor_verified === true })
    .data === true;
export const useServerConfig = () => useQuery(sessionQueries.config());

/** Refreshes everything that shows the user or their coins. */
export const useRefreshMe = () => useInvalidate(sessionQueries.me().queryKey);

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
    onSuccess: () => {
      client.setQueryData(sessionQueries.me().queryKey, null);
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueries.all[0] });
    },
  });
}

/** A page of this app to return to after signing in; anything else (another site, say) means the dashboard. */
export function returnPath(path: string | null | undefined): string {
  return path && returnPathSchema.safeParse(path).success ? path : paths.dashboard.root;
}

/**
 * The page a visitor asked for before being sent to sign in: a route guard passes it in the
 * location's state, a failed Google sign-in in `?from=`.
 */
export const askedPath = (location: Location, search: URLSearchParams) =>
  returnPath((location.state as { from?: string } | null)?.from ?? search.get("from"));

/** Where a user lands once signed in: the page they asked for, or their role's home. */
export const landingPath = (asked: string, role: Role) =>
  asked === paths.dashboard.root ? ROLE_HOME[role] : asked;

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
