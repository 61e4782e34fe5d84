import {
  markReadSchema,
  notificationPageSchema,
  pageQuerySchema,
  updatedCountSchema,
} from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { listNotifications, markRead } from "./service.ts";

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
    "/api/notifications/stream",
    {
      preHandler: requireRole(),
      schema: {
        tags: ["notifications"],
        summary: "Server-Sent Events: one `notification` event per new notification",
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
    },
  );
};
