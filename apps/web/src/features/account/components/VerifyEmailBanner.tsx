import { MailCheck } from "lucide-react";
import { toast } from "react-toastify";
import type { Role } from "@taskmint/shared/constants";
import { errorMessage } from "../../../lib/api.ts";
import { useResendVerification } from "../api.ts";

/** Shown on every dashboard page until the user confirms their address (rule R28). */
export function VerifyEmailBanner({ email, role }: { email: string; role: Role }) {
  const resend = useResendVerification();
  return (
    <div
      role="note"
      className="alert alert-warning mb-4 flex flex-wrap items-center"
      data-testid="verify-email-banner"
    >
      <MailCheck aria-hidden="true" className="size-5 shrink-0" />
      <p className="min-w-0 flex-1 basis-60 break-words">
        Please confirm your email address: open the link we sent to <strong>{email}</strong>.
        {role === "worker" && " You need it before your first withdrawal."}
      </p>
      {resend.isSuccess ? (
        <p className="font-medium" role="status">
          New link sent. Check your inbox.
        </p>
      ) : (
        <button
          type="button"
          className="btn btn-sm min-h-11"
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
    </div>
  );
}
