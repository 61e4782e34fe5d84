import type { ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { DbHandle } from "../../db/client.ts";
import { sessions, users } from "../../db/schema/index.ts";
import { LiveStream, type StreamOwner } from "./live-stream.ts";
import { getNotification, NOTIFICATION_CHANNEL, SESSION_END_CHANNEL } from "./service.ts";

/** How often open streams' sessions are looked at again (expiry, and ends that no notice announced). */
export const SESSION_SWEEP_MS = 30_000;
/** How often every open stream gets a comment line, so that nothing between takes it for idle. */
const HEARTBEAT_MS = 25_000;

/**
 * Owns the streams connected to this process: opens them, fans notifications out to them,
 * whichever process made them, keeps them alive, and ends a stream when its session ends
 * (migration 0011 announces every end). A stream leaves the hub the moment it ends, by
 * whichever path, so nothing here writes to an ended response.
 */
export class NotificationHub {
  private readonly byUser = new Map<string, Set<LiveStream>>();
  private stopListening: (() => Promise<void>) | null = null;
  private timers: NodeJS.Timeout[] = [];

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
    this.timers = [
      // A session can also end without a row changing (it expires), or between a stream's
      // session check and its subscription: a periodic look catches both.
      setInterval(() => this.checkSessions(), SESSION_SWEEP_MS),
      setInterval(() => this.heartbeat(), HEARTBEAT_MS),
    ];
    for (const timer of this.timers) timer.unref();
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
    for (const stream of this.byUser.get(userId) ?? []) stream.send("notification", view);
  }

  /**
   * `session:<id>` ends that session's streams, `user:<id>` every stream of that user. The
   * browser reconnects, and its session decides whether it gets a stream again.
   */
  private endStreams(payload: string) {
    const separator = payload.indexOf(":");
    const [kind, id] = [payload.slice(0, separator), payload.slice(separator + 1)];
    for (const stream of [...this.all()]) {
      if (
        (kind === "session" && stream.owner.sessionId === id) ||
        (kind === "user" && stream.owner.userId === id)
      )
        stream.end();
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
          inArray(sessions.id, [...new Set(open.map((stream) => stream.owner.sessionId))]),
          gt(sessions.expiresAt, sql`now()`),
        ),
      );
    const roleOf = new Map(live.map((row) => [row.sessionId, row.role]));
    for (const stream of open) if (roleOf.get(stream.owner.sessionId) !== stream.owner.role) stream.end();
  }

  /** Writes the keep-alive comment to every open stream (every HEARTBEAT_MS). */
  heartbeat() {
    for (const stream of this.all()) stream.heartbeat();
  }

  /** How many streams of this user are open on this process. */
  streamCount(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  private *all() {
    for (const set of this.byUser.values()) yield* set;
  }

  /**
   * Answers `response` with an event stream of `owner`'s notifications, open until its session
   * ends or the client leaves. The caller has checked the session.
   */
  open(response: ServerResponse, owner: StreamOwner, log: FastifyBaseLogger): LiveStream {
    const stream = new LiveStream(response, owner, log, () => {
      const streams = this.byUser.get(owner.userId);
      if (streams?.delete(stream) && streams.size === 0) this.byUser.delete(owner.userId);
    });
    const streams = this.byUser.get(owner.userId) ?? new Set();
    streams.add(stream);
    this.byUser.set(owner.userId, streams);
    // The client left while its session was read: its 'close' came before anyone listened.
    if (response.destroyed) stream.end();
    return stream;
  }

  async stop() {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.stopListening?.();
    this.stopListening = null;
  }
}
