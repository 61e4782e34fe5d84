import type { FastifyBaseLogger } from "fastify";
import type { DbHandle } from "../../db/client.ts";
import { getNotification, NOTIFICATION_CHANNEL, type NotificationView } from "./service.ts";

type Listener = (notification: NotificationView) => void;

/** Fans notifications out to the browsers connected to this process, whichever process made them. */
export class NotificationHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private stopListening: (() => Promise<void>) | null = null;

  constructor(
    private readonly handle: DbHandle,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start() {
    this.stopListening = await this.handle.listen(NOTIFICATION_CHANNEL, (id) => {
      void this.deliver(id).catch((error: unknown) => this.log.error({ err: error }, "notification delivery failed"));
    });
  }

  private async deliver(id: string) {
    const subscribers = [...this.listeners.values()].some((set) => set.size > 0);
    if (!subscribers) return;
    const notification = await getNotification(this.handle.db, id);
    if (!notification) return;
    const { userId, ...view } = notification;
    for (const listener of this.listeners.get(userId) ?? []) listener(view);
  }

  subscribe(userId: string, listener: Listener): () => void {
    const set = this.listeners.get(userId) ?? new Set();
    set.add(listener);
    this.listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  async stop() {
    await this.stopListening?.();
    this.stopListening = null;
  }
}
