import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { paths } from "@taskmint/shared/routes";
import { CardPage } from "../../../components/ui/CardPage.tsx";
import { useMe, useRefreshMe } from "../../../lib/auth.ts";
import { VerifyEmailBanner } from "../components/VerifyEmailBanner.tsx";

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
  const refreshMe = useRefreshMe();
  // The address changed state on the server: the banner and the withdrawal form read it again.
  useEffect(() => {
    void refreshMe();
  }, [refreshMe]);

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
            {user && !user.email_verified ? (
              <VerifyEmailBanner email={user.email} role={user.role} />
            ) : (
              !user && <p>Sign in and ask for a new link from your dashboard.</p>
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
