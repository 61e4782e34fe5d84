import { Lock, ShieldAlert } from "lucide-react";
import { Link } from "react-router";
import { paths } from "@taskmint/shared/routes";
import type { User } from "@taskmint/shared/schemas";
import { useMe, useSessionVerified } from "../../lib/auth.ts";
import { Notice } from "../ui/Notice.tsx";
import { ConfirmSession } from "./ConfirmSession.tsx";

/** What keeps this session from those actions, in the server's words (`details.reason`); null when nothing. */
function lockedBecause(me: User | null | undefined, verified: boolean) {
  if (!me) return null;
  if (!me.two_factor_enabled) return "two_factor_off";
  return verified ? null : "session_not_verified";
}

/** Profile > Security, where two-factor sign-in is turned on and a session confirmed. */
const SECURITY = `${paths.profile}#two-factor`;
const NOTICE_ID = "two-factor-needed";

/**
 * Whether the signed-in admin may take the actions that move coins or change access (rule
 * R30): two-factor sign-in on, and this session confirmed with a code. While locked, the
 * notice says which is missing and offers the way out (one dismissible line on phones), and
 * `lockedAction` stands where the action's controls would (never a disabled button): why, and
 * the way, in a few words, so dismissing the notice loses nothing. The server judges each
 * action anyway.
 *
 * @param toDo what the page's actions do, after "to": "decide withdrawals".
 * @param verb the same in one word, for a row's locked action: "decide".
 * @param inSection the notice heads a section further down the page (Admin home's withdrawals),
 *   so on phones it keeps its own line instead of joining the page's notices at the top.
 */
export function useTwoFactorGate(toDo: string, verb = "act", { inSection = false } = {}) {
  const { data: me } = useMe();
  const verified = useSessionVerified();
  const reason = lockedBecause(me, verified);
  const notice =
    reason === "two_factor_off" ? (
      <Notice
        id={NOTICE_ID}
        icon={<ShieldAlert aria-hidden="true" />}
        title={`Turn on two-factor sign-in to ${toDo}`}
        dismissible
        grouped={!inSection}
      >
        <p>
          Two-factor sign-in is off for your account. Admins need it for every action that moves coins or
          changes access.
        </p>
        <Link to={SECURITY} className="btn btn-sm mt-2 min-h-11">
          Turn on two-factor sign-in
        </Link>
      </Notice>
    ) : reason === "session_not_verified" ? (
      <Notice
        id={NOTICE_ID}
        icon={<ShieldAlert aria-hidden="true" />}
        title={`Confirm this session with a code to ${toDo}`}
        dismissible
        grouped={!inSection}
      >
        <p className="mb-2">
          This session began without a code from your authenticator app. Enter one to {toDo}.
        </p>
        <ConfirmSession />
      </Notice>
    ) : null;
  const lockedAction =
    reason === null ? null : (
      <Link
        to={SECURITY}
        className="link inline-flex min-h-11 items-center gap-1.5 text-sm whitespace-nowrap"
      >
        <Lock aria-hidden="true" className="size-4 shrink-0" />
        {reason === "two_factor_off" ? `Turn on two-factor to ${verb}` : `Confirm this session to ${verb}`}
      </Link>
    );
  return { locked: reason !== null, notice, lockedAction };
}
