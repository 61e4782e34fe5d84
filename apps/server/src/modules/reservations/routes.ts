import { z } from "zod";
import { idParamsSchema, reservationSchema } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireRole } from "../../plugins/auth-guard.ts";
import { cancelReservation, listActiveReservations, reserveSlot } from "./service.ts";

const idParams = idParamsSchema("Unknown id");

export const reservationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/tasks/:id/reservations",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Start a task: hold one of its slots for you for its time limit",
        description:
          "Takes an open slot at once (no coins move: they are in the task's escrow). 409 RESERVATION_LIMIT past 3 live reservations, NO_SLOTS_LEFT, TASK_CLOSED, ALREADY_SUBMITTED or CONFLICT (already reserved).",
        params: idParams,
        response: { 201: reservationSchema },
      },
    },
    async (request, reply) => {
      const reservation = await reserveSlot(app.db, {
        workerId: (await currentUser(request)).id,
        taskId: request.params.id,
        now: app.clock(),
      });
      return reply.status(201).send(reservation);
    },
  );

  app.get(
    "/api/worker/reservations",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Your live reservations, the soonest to run out first",
        response: { 200: z.array(reservationSchema) },
      },
    },
    async (request) => listActiveReservations(app.db, (await currentUser(request)).id, app.clock()),
  );

  app.delete(
    "/api/reservations/:id",
    {
      preHandler: requireRole("worker"),
      schema: {
        tags: ["worker"],
        summary: "Cancel your reservation: its slot goes back to the task",
        description:
          "409 NO_RESERVATION when it has already ended (submitted, cancelled, expired or closed).",
        params: idParams,
        response: { 200: reservationSchema },
      },
    },
    async (request) =>
      cancelReservation(app.db, {
        workerId: (await currentUser(request)).id,
        reservationId: request.params.id,
        now: app.clock(),
      }),
  );
};
