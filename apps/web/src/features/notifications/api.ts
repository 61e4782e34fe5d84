import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { NotificationPage } from "@taskmint/shared";
import { api } from "../../lib/api.ts";

const key = ["notifications"] as const;

export const useNotifications = () =>
  useQuery({
    queryKey: key,
    queryFn: () => api<NotificationPage>("/api/notifications?limit=10"),
  });

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api("/api/notifications/read", { body: { all: true } }),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
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
    return () => source.close();
  }, [enabled, client]);
}
