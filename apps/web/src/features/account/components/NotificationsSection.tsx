import { useQuery } from "@tanstack/react-query";
import { toast } from "react-toastify";
import { MAIL_KINDS, type MailKind, type NotificationChannel } from "@taskmint/shared";
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

/** The two channels a kind can have, as the choices read. */
const CHANNELS: [NotificationChannel, string][] = [
  ["mail", "Mail and bell"],
  ["bell", "Bell only"],
];

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
                  {/* Two choices per kind, as one radio group of tap-sized buttons: mail too, or the bell only. */}
                  <fieldset className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
                    <legend className="float-left min-w-0 flex-1 basis-52">{MAIL_KINDS[kind].label}</legend>
                    <div className="flex gap-1 rounded-field bg-base-200 p-1">
                      {CHANNELS.map(([channel, label]) => (
                        <input
                          key={channel}
                          type="radio"
                          name={`mail-${kind}`}
                          value={channel}
                          aria-label={label}
                          className="btn btn-sm min-h-11 border-0 shadow-none sm:min-h-9"
                          checked={settings.data[kind] === channel}
                          disabled={update.isPending}
                          onChange={() =>
                            update.mutate(
                              { [kind]: channel },
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
                      ))}
                    </div>
                  </fieldset>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
