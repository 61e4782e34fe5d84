import { CircleHelp, Monitor, Smartphone, Tablet } from "lucide-react";
import { type ActiveSession } from "@taskmint/shared";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { When } from "../../../components/ui/When.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { useQuery } from "@tanstack/react-query";
import { useEndSession } from "../api.ts";
import { accountQueries } from "../queries.ts";

/** "Chrome 126 on Android 14": browser and system with their versions, else the plain device name. */
const deviceTitle = (session: ActiveSession) =>
  session.browser && session.system ? `${session.browser} on ${session.system}` : session.device;

const KIND_ICONS = { phone: Smartphone, tablet: Tablet, computer: Monitor } as const;

function DeviceIcon({ kind }: { kind: ActiveSession["kind"] }) {
  const Icon = kind ? KIND_ICONS[kind] : CircleHelp;
  return (
    <span className="grid size-10 shrink-0 place-items-center rounded-full bg-base-200" aria-hidden="true">
      <Icon className="size-5" />
    </span>
  );
}

/**
 * The account's signed-in sessions, each told apart by its browser, system, kind of device,
 * address and when it began; each but this one can be ended.
 */
export function SessionsCard() {
  const sessions = useQuery(accountQueries.sessions());
  const ending = useConfirmedDeletion(useEndSession(), {
    variables: (session: ActiveSession) => session,
    success: (_result, session) => `Signed out ${deviceTitle(session)}`,
    failure: "Failed to sign that session out",
  });
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <h3 className="card-title">Where you are signed in</h3>
        {sessions.isPending ? (
          <Spinner />
        ) : sessions.isError ? (
          <ErrorState
            message={errorMessage(sessions.error, "Could not load your sessions")}
            onRetry={() => void sessions.refetch()}
          />
        ) : sessions.data.length === 0 ? (
          <p>No sessions.</p>
        ) : (
          <ul className="divide-y divide-base-300" aria-label="Your sessions">
            {sessions.data.map((session) => (
              <li key={session.id} className="flex flex-wrap items-center gap-3 py-3">
                <DeviceIcon kind={session.kind} />
                <div className="min-w-0 flex-1 basis-48">
                  <p className="font-medium break-words">
                    {deviceTitle(session)}
                    {session.current && (
                      <span className="badge badge-primary badge-sm ml-2 align-middle">This device</span>
                    )}
                  </p>
                  <p className="text-sm text-base-content/70">
                    Signed in {formatDateTime(session.first_seen)}
                    {!session.current && (
                      <>
                        {" "}
                        · last used <When iso={session.last_seen} />
                      </>
                    )}
                  </p>
                  <p className="text-sm break-all text-base-content/70">
                    {session.ip ? `From address ${session.ip}` : "Address unknown"}
                  </p>
                </div>
                {!session.current && (
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    aria-label={`Sign out ${deviceTitle(session)} at ${session.ip ?? "an unknown address"}`}
                    onClick={() => ending.ask(session)}
                  >
                    Sign out
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <ConfirmDialog
          deletion={ending}
          title={(session) => `Sign out ${deviceTitle(session)}?`}
          message={(session) =>
            `The session from ${session.ip ?? "an unknown address"} ends at once; signing in there again needs your password.`
          }
          confirmLabel={() => "Yes, sign it out"}
        />
      </div>
    </div>
  );
}
