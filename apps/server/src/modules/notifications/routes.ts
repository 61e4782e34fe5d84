import { MAIL_KINDS, notificationsEndpoints as endpoints, type StreamReady } from "@taskmint/shared";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { route } from "../../plugins/endpoint-route.ts";
import {
  notificationSettings,
  readUnsubscribeToken,
  unsubscribe,
  updateNotificationSettings,
} from "./mail.ts";
import { listNotifications, markRead, newestNotificationId } from "./service.ts";

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.listNotifications, (request) =>
    listNotifications(app.db, request.sessionUser.id, request.query),
  );

  route(app, endpoints.markNotificationsRead, async (request) => {
    const { id } = request.sessionUser;
    return { updated: await markRead(app.db, { userId: id, which: request.body, now: request.now }) };
  });

  route(app, endpoints.getNotificationSettings, (request) =>
    notificationSettings(app.db, request.sessionUser.id),
  );

  route(app, endpoints.updateNotificationSettings, (request) =>
    updateNotificationSettings(app.db, request.sessionUser.id, request.body),
  );

  // One-click unsubscribe (RFC 8058): mail clients POST `List-Unsubscribe=One-Click` as a form
  // to the address in the mail's header; the web page posts the same token as JSON.
  await app.register(async (oneClick) => {
    oneClick.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 1024 },
      (_request, body: string, done) => done(null, Object.fromEntries(new URLSearchParams(body))),
    );
    route(oneClick.withTypeProvider<ZodTypeProvider>(), endpoints.unsubscribeFromMail, async (request) => {
      const token = request.query.token ?? request.body?.token;
      const named = token ? readUnsubscribeToken(app.mailSigningKey, token) : null;
      if (!named || !(await unsubscribe(app.db, named.userId, named.kind)))
        throw new AppError("VALIDATION", "This unsubscribe link is invalid");
      return { kind: named.kind, label: MAIL_KINDS[named.kind].label, channel: "bell" as const };
    });
  });

  route(app, endpoints.streamNotifications, async (request, reply) => {
    const { id, sessionId, role } = request.sessionUser;
    reply.hijack();
    const stream = app.notificationHub.open(reply.raw, { userId: id, sessionId, role }, request.log);
    // Read once the stream is in the hub: whatever is newer than this comes on the stream.
    try {
      const ready: StreamReady = { latest_id: await newestNotificationId(app.db, id) };
      stream.send("ready", ready);
    } catch (error) {
      // The database went away: the stream stays and carries what comes once it is back; only
      // this connection's check for a notification it missed is lost.
      request.log.warn({ err: error }, "the notification stream could not read the newest notification");
    }
  });
};
