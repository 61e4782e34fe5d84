import { Link, useSearchParams } from "react-router";
import { MAIL_KINDS, type MailKind } from "@taskmint/shared";
import { paths } from "@taskmint/shared/routes";
import { CardPage } from "../../../components/ui/CardPage.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useUnsubscribe } from "../api.ts";

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
