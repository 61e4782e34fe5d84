import { type ActiveSession } from "@taskmint/shared";
import { ConfirmDialog } from "../../../components/ui/ConfirmDialog.tsx";
import { ErrorState } from "../../../components/ui/States.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { When } from "../../../components/ui/When.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useConfirmedDeletion } from "../../../lib/useConfirmedDeletion.ts";
import { useQuery } from "@tanstack/react-query";
import { useEndSession } from "../api.ts";
import { accountQueries } from "../queries.ts";

/** The account's signed-in sessions, each of which can be ended. */
export function SessionsCard() {
  const sessions = useQuery(accountQueries.sessions());
  const ending = useConfirmedDeletion(useEndSession(), {
    variables: (session: ActiveSession) => session,
    success: (_result, session) => `Signed out ${session.device}`,
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
              <li key={session.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div>
                  <p className="font-medium">
                    {session.device}
                    {session.current && (
                      <span className="badge badge-primary badge-sm ml-2">This device</span>
                    )}
                  </p>
                  <p className="text-sm text-base-content/70">
                    {session.ip ?? "Unknown address"} · last seen <When iso={session.last_seen} />
                  </p>
                </div>
                {!session.current && (
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    aria-label={`Sign out ${session.device} at ${session.ip ?? "an unknown address"}`}
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
          title={(session) => `Sign out ${session.device}?`}
          message={(session) =>
            `The session from ${session.ip ?? "an unknown address"} ends at once; signing in there again needs your password.`
          }
          confirmLabel={() => "Yes, sign it out"}
        />
      </div>
    </div>
  );
}
