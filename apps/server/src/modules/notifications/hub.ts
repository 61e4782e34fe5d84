import type { FastifyBaseLogger } from "fastify";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { AppNotification, Role } from "@taskmint/shared";
import type { DbHandle } from "../../db/client.ts";
import { sessions, users } from "../../db/schema/index.ts";
import { getNotification, NOTIFICATION_CHANNEL, SESSION_END_CHANNEL } from "./service.ts";

/** How often open streams' sessions are looked at again (expiry, and ends that no notice announced). */
export const SESSION_SWEEP_MS = 30_000;

/** A live stream: whose it is, under which session and role, how to feed it and how to end it. */
export interface StreamSubscription {
  userId: string;
  sessionId: string;
  role: Role;
  deliver(notification: AppNotification): void;
  end(): void;
}

/**
 * Fans notifications out to the streams connected to this process, whichever process made
 * them, and ends a stream when its session ends (migration 0011 announces every end).
 */
export class NotificationHub {
  private readonly byUser = new Map<string, Set<StreamSubscription>>();
  private stopListening: (() => Promise<void>) | null = null;
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    private readonly handle: DbHandle,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start() {
    this.stopListening = await this.handle.listen(
      {
        [NOTIFICATION_CHANNEL]: (id) => {
          void this.deliver(id).catch((error: unknown) =>
            this.log.error({ err: error }, "notification delivery failed"),
          );
        },
        [SESSION_END_CHANNEL]: (payload) => this.endStreams(payload),
      },
      () => this.checkSessions(),
    );
    // A session can also end without a row changing (it expires), or between a stream's
    // session check and its subscription: a periodic look catches both.
    this.sweep = setInterval(() => this.checkSessions(), SESSION_SWEEP_MS);
    this.sweep.unref();
  }

  private checkSessions() {
    void this.endStreamsOfEndedSessions().catch((error: unknown) =>
      this.log.warn({ err: error }, "could not check the streams' sessions"),
    );
  }

  private async deliver(id: string) {
    if (this.byUser.size === 0) return;
    const notification = await getNotification(this.handle.db, id);
    if (!notification) return;
    const { userId, ...view } = notification;
    for (const subscription of this.byUser.get(userId) ?? []) subscription.deliver(view);
  }

  /** `session:<id>` ends that session's streams, `user:<id>` every stream of that user. */
  private endStreams(payload: string) {
    const separator = payload.indexOf(":");
    const [kind, id] = [payload.slice(0, separator), payload.slice(separator + 1)];
    for (const subscription of [...this.all()]) {
      if (
        (kind === "session" && subscription.sessionId === id) ||
        (kind === "user" && subscription.userId === id)
      )
        subscription.end();
    }
  }

  /** Ends the streams whose session ended, expired or whose user changed: after the LISTEN connection was lost, and periodically. */
  async endStreamsOfEndedSessions() {
    const open = [...this.all()];
    if (open.length === 0) return;
    const live = await this.handle.db
      .select({ sessionId: sessions.id, role: users.role })
      .from(sessions)
      .innerJoin(users, and(eq(users.id, sessions.userId), isNull(users.deletedAt)))
      .where(
        and(
          inArray(sessions.id, [...new Set(open.map((subscription) => subscription.sessionId))]),
          gt(sessions.expiresAt, sql`now()`),
        ),
      );
    const roleOf = new Map(live.map((row) => [row.sessionId, row.role]));
    for (const subscription of open)
      if (roleOf.get(subscription.sessionId) !== subscription.role) subscription.end();
  }

  private *all() {
    for (const set of this.byUser.values()) yield* set;
  }

  subscribe(subscription: StreamSubscription): () => void {
    const set = this.byUser.get(subscription.userId) ?? new Set();
    set.add(subscription);
    this.byUser.set(subscription.userId, set);
    return () => {
      if (set.delete(subscription) && set.size === 0) this.byUser.delete(subscription.userId);
    };
  }

  async stop() {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
    await this.stopListening?.();
    this.stopListening = null;
  }
}
