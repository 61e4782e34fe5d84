import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { notificationSchema, notificationsEndpoints, streamReadySchema, urlOf } from "@taskmint/shared";
import { call } from "../../lib/api.ts";
import { sessionQueries } from "../../lib/auth.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { notificationQueries } from "./queries.ts";

export function useMarkAllRead() {
  const refresh = useInvalidate(notificationQueries.all);
  return useMutation({
    mutationFn: () => call(notificationsEndpoints.markNotificationsRead, { body: { all: true } }),
    onSuccess: refresh,
  });
}

/** Marks one notification read, as its link is followed. */
export function useMarkRead() {
  const refresh = useInvalidate(notificationQueries.all);
  return useMutation({
    mutationFn: (id: string) => call(notificationsEndpoints.markNotificationsRead, { body: { ids: [id] } }),
    onSuccess: refresh,
  });
}

/**
 * Listens to the server's event stream while signed in; a new notification refreshes the
 * bell, and everything else on screen, since the event usually moved coins or work.
 * EventSource reconnects by itself.
 */
export function useNotificationStream(enabled: boolean) {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    // The newest notification that what is on screen already reflects: the profile (read
    // before anything else a page shows) names the newest as it was read.
    let reflected = client.getQueryData(sessionQueries.me().queryKey)?.latest_notification_id;
    const source = new EventSource(urlOf(notificationsEndpoints.streamNotifications), {
      withCredentials: true,
    });
    source.addEventListener("notification", (event) => {
      const sent = notificationSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (sent.success) reflected = sent.data.id;
      void client.invalidateQueries();
    });
    // A notification made while the stream was not connected (before it first connected, or
    // while it reconnected) was never sent on it: when the newest one as the stream began is
    // not the newest what is on screen reflects, everything is refreshed. The bell's own list
    // is no guide: it may have been read after the notification, the balance before it.
    source.addEventListener("ready", (event) => {
      const ready = streamReadySchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (!ready.success || ready.data.latest_id === reflected) return;
      reflected = ready.data.latest_id;
      void client.invalidateQueries();
    });
    return () => source.close();
  }, [enabled, client]);
}
