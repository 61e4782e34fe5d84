import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { ROLE_HOME, type Role } from "@taskmint/shared/constants";
import { paths } from "@taskmint/shared/routes";
import { Spinner } from "../components/ui/Spinner.tsx";
import { useMe } from "../lib/auth.ts";

/** Signed-in users only: visitors go to /login and come back after (rule R16). */
export function RequireUser({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Spinner />;
  if (!me.data)
    return <Navigate to={paths.login} replace state={{ from: `${location.pathname}${location.search}` }} />;
  return children;
}

/** One role only: anyone else goes to their own home. */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <Spinner />;
  if (!me.data) return <Navigate to={paths.login} replace />;
  if (me.data.role !== role) return <Navigate to={ROLE_HOME[me.data.role]} replace />;
  return children;
}

/** Visitors only: signed-in users go to the dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <Spinner />;
  if (me.data) return <Navigate to={paths.dashboard.root} replace />;
  return children;
}
