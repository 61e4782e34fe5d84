import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api } from "../../lib/api.ts";
import { useInvalidate } from "../../lib/invalidate.ts";
import { notificationQueries } from "./queries.ts";

export function useMarkAllRead() {
  const refresh = useInvalidate(notificationQueries.all);
  return useMutation({
    mutationFn: () => api("/api/notifications/read", { body: { all: true } }),
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
    const source = new EventSource("/api/notifications/stream", { withCredentials: true });
    source.addEventListener("notification", () => void client.invalidateQueries());
    // What happened while the stream was not connected (before it first connected, or while it
    // reconnected) was never sent on it: each connection refreshes what is on screen.
    source.addEventListener("open", () => void client.invalidateQueries());
    return () => source.close();
  }, [enabled, client]);
}
