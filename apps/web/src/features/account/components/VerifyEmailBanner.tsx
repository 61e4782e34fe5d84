import { MailCheck } from "lucide-react";
import { toast } from "react-toastify";
import type { Role } from "@taskmint/shared/constants";
import { Email } from "../../../components/ui/Email.tsx";
import { Notice } from "../../../components/ui/Notice.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useResendVerification } from "../api.ts";

/**
 * Shown on every dashboard page until the user confirms their address (rule R28): one line on
 * phones that opens to the rest, dismissible for the browser session.
 */
export function VerifyEmailBanner({ email, role }: { email: string; role: Role }) {
  const resend = useResendVerification();
  return (
    <Notice
      id="verify-email-banner"
      icon={<MailCheck aria-hidden="true" />}
      title="Confirm your email address"
      dismissible
      later
    >
      <p>
        Open the link we sent to <Email address={email} className="font-semibold" />.
        {role === "worker" && " You need it before your first withdrawal."}
      </p>
      {resend.isSuccess ? (
        <p className="mt-2 font-medium" role="status">
          New link sent. Check your inbox.
        </p>
      ) : (
        <button
          type="button"
          className="btn btn-sm mt-2 min-h-11"
          disabled={resend.isPending}
          onClick={() =>
            resend.mutate(undefined, {
              onError: (error) => toast.error(errorMessage(error, "Could not send a new link")),
            })
          }
        >
          {resend.isPending ? "Sending…" : "Send a new link"}
        </button>
      )}
    </Notice>
  );
}
