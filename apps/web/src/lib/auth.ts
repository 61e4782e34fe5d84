import { queryOptions, useQuery } from "@tanstack/react-query";
import { healthEndpoints, usersEndpoints } from "@taskmint/shared";
import { ROLE_HOME, type Role } from "@taskmint/shared/constants";
import { returnPathSchema, type MeAnswer } from "@taskmint/shared/schemas";
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
