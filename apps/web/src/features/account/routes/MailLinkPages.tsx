import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { CardPage } from "../../../components/ui/CardPage.tsx";
import { sessionQueries, useMe } from "../../../lib/auth.ts";
import { MAIL_KINDS, type MailKind } from "@taskmint/shared";
import { errorMessage } from "../../../lib/api.ts";
import { useUnsubscribe } from "../api.ts";

// The pages a mail's links open (rules R28, R29), loaded together on demand.

/** Why a verification link failed, by the code the server sends back in `?error=`. */
const WHY: Record<string, string> = {
  TOKEN_EXPIRED: "It has expired: a link works for 24 hours.",
  USER_NOT_FOUND: "The account it was sent for no longer exists.",
};

/** Where a verification mail's link lands (rule R28): confirmed, or why not and what to do. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const error = params.get("error");
  const { data: user } = useMe();
  const client = useQueryClient();
  // The address changed state on the server: the banner and the withdrawal form read it again,
  // once (the client is stable; useRefreshMe's callback is new on every render).
  useEffect(() => {
    void client.invalidateQueries({ queryKey: sessionQueries.me().queryKey });
  }, [client]);

  const next = user ? (
    <Link to={paths.dashboard.root} className="btn btn-primary mt-2 min-h-11">
      Go to your dashboard
    </Link>
  ) : (
    <Link to={paths.login} className="btn btn-primary mt-2 min-h-11">
      Sign in
    </Link>
  );
  return (
    <CardPage>
      <div className="card-body gap-3">
        {error ? (
          <>
            <h1 className="card-title text-2xl">This link did not work</h1>
            <p>
              {WHY[error] ??
                "It is invalid or incomplete: open it straight from the mail, without changing it."}
            </p>
            {!user?.email_verified && (
              <p>{user ? "Ask for a new link" : "Sign in and ask for a new link"} from your dashboard.</p>
            )}
          </>
        ) : (
          <>
            <h1 className="card-title text-2xl">Your email address is confirmed</h1>
            <p>Thank you. Mails you chose to receive will reach you there.</p>
          </>
        )}
        {next}
      </div>
    </CardPage>
  );
}

/** The kind a mail's token names (`<user>.<kind>.<signature>`), read to say what stops. */
function kindOf(token: string): MailKind | null {
  const kind = token.split(".")[1] ?? "";
  return kind in MAIL_KINDS ? (kind as MailKind) : null;
}

/** Where a notification mail's "Stop these mails" link lands: one click, no sign-in (rule R29). */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const kind = kindOf(token);
  const unsubscribe = useUnsubscribe();
  const settings = (
    <Link to={`${paths.profile}#notifications`} className="link link-primary">
      notification settings
    </Link>
  );
  return (
    <CardPage>
      <div className="card-body gap-3">
        {!kind ? (
          <>
            <h1 className="card-title text-2xl">This link is incomplete</h1>
            <p>Open it straight from the mail, or choose which mails you get in your {settings}.</p>
          </>
        ) : unsubscribe.isSuccess ? (
          <>
            <h1 className="card-title text-2xl">You are unsubscribed</h1>
            <p>
              No more mails about “{unsubscribe.data.label}”. You still see them under the bell in TaskMint,
              and you can turn the mails back on in your {settings}.
            </p>
          </>
        ) : (
          <>
            <h1 className="card-title text-2xl">Stop these mails?</h1>
            <p>
              You will no longer get mails about “{MAIL_KINDS[kind].label}”. They still show under the bell in
              TaskMint.
            </p>
            {unsubscribe.isError && (
              <div role="alert" className="alert alert-error text-sm">
                {errorMessage(unsubscribe.error, "Could not unsubscribe you")}
              </div>
            )}
            <button
              type="button"
              className="btn btn-primary mt-2 min-h-11"
              disabled={unsubscribe.isPending}
              onClick={() => unsubscribe.mutate(token)}
            >
              {unsubscribe.isPending ? "Unsubscribing…" : "Unsubscribe"}
            </button>
          </>
        )}
      </div>
    </CardPage>
  );
}
