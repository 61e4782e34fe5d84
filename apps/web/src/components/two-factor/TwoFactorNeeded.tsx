import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";
import type { User } from "@taskmint/shared/schemas";
import { useMe, useSessionVerified } from "../../lib/auth.ts";
import { ConfirmSession } from "./ConfirmSession.tsx";

/** What keeps this session from those actions, in the server's words (`details.reason`); null when nothing. */
function lockedBecause(me: User | null | undefined, verified: boolean) {
  if (!me) return null;
  if (!me.two_factor_enabled) return "two_factor_off";
  return verified ? null : "session_not_verified";
}

/**
 * Whether the signed-in admin may take the actions that move coins or change access (rule
 * R30): two-factor sign-in on, and this session confirmed with a code. While locked, the
 * notice says which is missing and offers the way out; the server judges each action anyway.
 */
export function useTwoFactorGate(what: string) {
  const { data: me } = useMe();
  const verified = useSessionVerified();
  const reason = lockedBecause(me, verified);
  const notice =
    reason === "two_factor_off" ? (
      <div role="note" className="alert alert-warning mb-4 flex flex-wrap">
        <p>Two-factor sign-in is off for your account. Admins need it before {what}.</p>
        <Link to={`${paths.profile}#two-factor`} className="btn btn-sm">
          Turn on two-factor sign-in
        </Link>
      </div>
    ) : reason === "session_not_verified" ? (
      <div role="note" className="alert alert-warning mb-4 flex flex-col items-start">
        <p>This session began without a code from your authenticator app. Confirm one before {what}.</p>
        <ConfirmSession />
      </div>
    ) : null;
  return {
    locked: reason !== null,
    notice,
    /** For a locked control's title: where to read why. */
    why:
      reason === null ? undefined : "Needs a session confirmed with two-factor sign-in: see the notice above",
  };
}
