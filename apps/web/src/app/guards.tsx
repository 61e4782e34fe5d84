import type { ReactNode } from "react";
import { Navigate, useLocation, useSearchParams } from "react-router";
import { ROLE_HOME, type Role } from "@taskmint/shared/constants";
import { paths } from "@taskmint/shared/routes";
import { PageSkeleton } from "../components/ui/PageSkeleton.tsx";
import { askedPath, landingPath, useMe } from "../lib/auth.ts";

/** Signed-in users only: visitors go to /login and come back after (rule R16). */
export function RequireUser({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <PageSkeleton />;
  if (!me.data)
    return <Navigate to={paths.login} replace state={{ from: `${location.pathname}${location.search}` }} />;
  return children;
}

/** One role only: anyone else goes to their own home. */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <PageSkeleton />;
  if (!me.data) return <Navigate to={paths.login} replace />;
  if (me.data.role !== role) return <Navigate to={ROLE_HOME[me.data.role]} replace />;
  return children;
}

/** /dashboard itself: the signed-in user's home. */
export function RoleHome() {
  const me = useMe();
  if (!me.data) return <PageSkeleton />;
  return <Navigate to={ROLE_HOME[me.data.role]} replace />;
}

/**
 * Visitors only. A user who signs in here goes on to the page they asked for (or their
 * role's home): this guard does it, so the sign-in form and the guard never race each other.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  const [search] = useSearchParams();
  if (me.isPending) return <PageSkeleton />;
  if (me.data) return <Navigate to={landingPath(askedPath(location, search), me.data.role)} replace />;
  return children;
}
