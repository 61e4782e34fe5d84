import { useQuery } from "@tanstack/react-query";
import { toast } from "react-toastify";
import { MAIL_KINDS, type MailKind } from "@taskmint/shared";
import type { Role } from "@taskmint/shared/constants";
import { ErrorState } from "../../../components/ui/States.tsx";
import { Spinner } from "../../../components/ui/Spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useUpdateNotificationSettings } from "../api.ts";
import { accountQueries } from "../queries.ts";

/** The kinds of notification each role receives, so nobody is asked about mails they never get. */
const KINDS_BY_ROLE: Record<Role, MailKind[]> = {
  worker: ["work_decided", "bonus_received", "appeal_updates", "withdrawal_decided"],
  buyer: ["work_submitted", "appeal_updates"],
  admin: ["appeal_updates"],
};

/** Profile's Notifications: per kind, mail as well as the bell, or the bell only (rule R29). */
export function NotificationsSection({
  user,
}: {
  user: { role: Role; email: string; email_verified: boolean };
}) {
  const settings = useQuery(accountQueries.notificationSettings());
  const update = useUpdateNotificationSettings();
  return (
    <section aria-labelledby="notifications-title" className="mt-6" id="notifications">
      <h2 id="notifications-title" className="text-xl font-bold">
        Notifications
      </h2>
      <div className="card mt-3 bg-base-100 shadow-sm">
        <div className="card-body gap-3">
          <p>
            Everything shows under the bell. Choose what also comes by mail to{" "}
            <strong className="break-all">{user.email}</strong>.
          </p>
          {!user.email_verified && (
            <p className="text-sm">Mails start once you confirm your address with the link we sent.</p>
          )}
          {settings.isPending ? (
            <Spinner />
          ) : settings.isError ? (
            <ErrorState message={errorMessage(settings.error, "Could not load your notification settings")} />
          ) : (
            <ul className="divide-y divide-base-300">
              {KINDS_BY_ROLE[user.role].map((kind) => (
                <li key={kind}>
                  <label className="flex min-h-11 cursor-pointer items-center justify-between gap-4 py-2">
                    <span>{MAIL_KINDS[kind].label}</span>
                    <span className="flex items-center gap-2 text-sm">
                      <span aria-hidden="true" className="text-base-content/70">
                        {settings.data[kind] === "mail" ? "Mail" : "Bell only"}
                      </span>
                      <input
                        type="checkbox"
                        className="toggle toggle-primary"
                        aria-label={`Mail me: ${MAIL_KINDS[kind].label}`}
                        checked={settings.data[kind] === "mail"}
                        disabled={update.isPending}
                        onChange={(event) =>
                          update.mutate(
                            { [kind]: event.target.checked ? "mail" : "bell" },
                            {
                              onSuccess: (saved) =>
                                toast.success(
                                  saved[kind] === "mail"
                                    ? `Mails on: ${MAIL_KINDS[kind].label}`
                                    : `Bell only: ${MAIL_KINDS[kind].label}`,
                                ),
                              onError: (error) =>
                                toast.error(errorMessage(error, "Could not save your choice")),
                            },
                          )
                        }
                      />
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
