import {
  MAIL_KINDS,
  markReadSchema,
  notificationPageSchema,
  notificationSettingsSchema,
  notificationSettingsUpdateSchema,
  pageQuerySchema,
  type StreamReady,
  unsubscribedSchema,
  unsubscribeTokenSchema,
  updatedCountSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import {
  notificationSettings,
  readUnsubscribeToken,
  unsubscribe,
  updateNotificationSettings,
} from "./mail.ts";
import { listNotifications, markRead, newestNotificationId } from "./service.ts";

const HEARTBEAT_MS = 25_000;

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/notifications",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["notifications"],
        summary: "Your notifications, newest first, with the unread count",
        querystring: pageQuerySchema,
        response: { 200: notificationPageSchema },
      },
    },
    async (request) => listNotifications(app.db, (await currentUser(request)).id, request.query),
  );

  app.post(
    "/api/notifications/read",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["notifications"],
        summary: "Mark your notifications read: some ids, or all",
        body: markReadSchema,
        response: { 200: updatedCountSchema },
      },
    },
    async (request) => {
      const { id } = await currentUser(request);
      return { updated: await markRead(app.db, { userId: id, which: request.body, now: app.clock() }) };
    },
  );

  app.get(
    "/api/me/notification-settings",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["notifications"],
        summary: "Which kinds of notification you also get by mail (the bell shows them all)",
        response: { 200: notificationSettingsSchema },
      },
    },
    async (request) => notificationSettings(app.db, (await currentUser(request)).id),
  );

  app.put(
    "/api/me/notification-settings",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["notifications"],
        summary: "Choose mail or the bell only for some kinds; the others stay as they are",
        body: notificationSettingsUpdateSchema,
        response: { 200: notificationSettingsSchema },
      },
    },
    async (request) => updateNotificationSettings(app.db, (await currentUser(request)).id, request.body),
  );

  // One-click unsubscribe (RFC 8058): mail clients POST `List-Unsubscribe=One-Click` as a form
  // to the address in the mail's header; the web page posts the same token as JSON.
  await app.register(async (oneClick) => {
    oneClick.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 1024 },
      (_request, body: string, done) => done(null, Object.fromEntries(new URLSearchParams(body))),
    );
    oneClick.withTypeProvider<ZodTypeProvider>().post(
      "/api/unsubscribe",
      {
        schema: {
          tags: ["notifications"],
          summary: "Stop one kind of notification mail, from the signed link in such a mail (no sign-in)",
          querystring: z.object({ token: unsubscribeTokenSchema.optional() }).strict(),
          body: z
            .object({
              token: unsubscribeTokenSchema.optional(),
              "List-Unsubscribe": z.literal("One-Click").optional(),
            })
            .strict()
            .optional(),
          response: { 200: unsubscribedSchema },
        },
      },
      async (request) => {
        const token = request.query.token ?? request.body?.token;
        const named = token ? readUnsubscribeToken(app.mailSigningKey, token) : null;
        if (!named || !(await unsubscribe(app.db, named.userId, named.kind)))
          throw new AppError("VALIDATION", "This unsubscribe link is invalid");
        return { kind: named.kind, label: MAIL_KINDS[named.kind].label, channel: "bell" as const };
      },
    );
  });

  app.get(
    "/api/notifications/stream",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["notifications"],
        summary:
          "Server-Sent Events: first `ready` (the newest notification's id as the stream began), then one `notification` event per new notification",
      },
    },
    async (request, reply) => {
      const { id, sessionId, role } = await currentUser(request);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      raw.write("retry: 3000\n\n");
      const unsubscribe = app.notificationHub.subscribe({
        userId: id,
        sessionId,
        role,
        deliver: (notification) =>
          raw.write(`event: notification\ndata: ${JSON.stringify(notification)}\n\n`),
        // The session ended: the browser reconnects, and its session decides whether it gets a stream.
        end: () => raw.end(),
      });
      const heartbeat = setInterval(() => raw.write(": keep-alive\n\n"), HEARTBEAT_MS);
      const close = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.raw.on("close", close);
      raw.on("finish", close);
      // Read after subscribing: whatever is newer than this comes on the stream.
      try {
        const ready: StreamReady = { latest_id: await newestNotificationId(app.db, id) };
        if (!raw.writableEnded && !raw.destroyed)
          raw.write(`event: ready\ndata: ${JSON.stringify(ready)}\n\n`);
      } catch (error) {
        // The database went away: the stream stays and carries what comes once it is back; only
        // this connection's check for a notification it missed is lost.
        request.log.warn({ err: error }, "the notification stream could not read the newest notification");
      }
    },
  );
};
