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
    },
  );
};
